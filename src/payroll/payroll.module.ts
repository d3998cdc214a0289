import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AttendanceModule } from '../attendance/attendance.module';
import { EmployeesModule } from '../employees/employees.module';
import { LeaveModule } from '../leave/leave.module';
import { TimesheetsModule } from '../timesheets/timesheets.module';
import { ReferenceModule } from '../reference/reference.module';
import { PAYROLL_CONFIG_ENTITIES } from './entities/payroll-config.entities';
import { EmployeeSalaryController, PAYROLL_CRUD_CONTROLLERS, PayrollConfigController } from './payroll-config.controller';
import { PayrollConfigService } from './payroll-config.service';
import { PayrollEmployeesService } from './payroll-employees.service';
import { PayrollInputsService } from './payroll-inputs.service';

@Module({
  imports: [
    AttendanceModule,
    EmployeesModule,
    LeaveModule,
    ReferenceModule,
    TimesheetsModule,
    TypeOrmModule.forFeature(PAYROLL_CONFIG_ENTITIES),
  ],
  controllers: [PayrollConfigController, EmployeeSalaryController, ...PAYROLL_CRUD_CONTROLLERS],
  providers: [PayrollConfigService, PayrollEmployeesService, PayrollInputsService],
  exports: [PayrollConfigService, PayrollEmployeesService, PayrollInputsService],
})
export class PayrollModule {}
