import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EmployeesModule } from '../employees/employees.module';
import { SettingsModule } from '../settings/settings.module';
import { AttendanceController, EmployeeAttendanceController } from './attendance.controller';
import { AttendanceImport } from './attendance.import';
import { AttendanceService } from './attendance.service';
import { AttendanceRepository } from './attendance.repository';
import { AttendanceRecord } from './entities/attendance.entity';

@Module({
  imports: [EmployeesModule, SettingsModule, TypeOrmModule.forFeature([AttendanceRecord])],
  controllers: [AttendanceController, EmployeeAttendanceController],
  providers: [AttendanceService, AttendanceRepository, AttendanceImport],
  exports: [AttendanceService],
})
export class AttendanceModule {}
