import { declareMobileModule } from '../settings/settings.registry';
import { AttendancePayrollInputs } from './attendance.payroll-inputs';
import { Module } from '@nestjs/common';
import { declareApiTag } from '../common/openapi/api-tags';
import { declareExtension } from '../common/meta/extensions';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EmployeesModule } from '../employees/employees.module';
import { SettingsModule } from '../settings/settings.module';
import { AttendanceController, EmployeeAttendanceController } from './attendance.controller';
import { AttendanceImport } from './attendance.import';
import { AttendanceService } from './attendance.service';
import { AttendanceRepository } from './attendance.repository';
import { AttendanceRecord } from './entities/attendance.entity';
import { AttendancePersonalData } from './attendance.personal-data';

declareApiTag('Attendance', 'Punch in/out and attendance records', 110);

declareMobileModule({ key: 'attendance', label: 'Attendance' });

declareExtension({ code: 'attendance', label: 'Attendance', features: ['punch-in-out', 'work-from-home', 'attendance-summary'] });

@Module({
  imports: [EmployeesModule, SettingsModule, TypeOrmModule.forFeature([AttendanceRecord])],
  controllers: [AttendanceController, EmployeeAttendanceController],
  providers: [AttendancePersonalData, AttendanceService, AttendanceRepository, AttendanceImport, AttendancePayrollInputs],
  exports: [AttendanceService],
})
export class AttendanceModule {}
