import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EmployeesModule } from '../employees/employees.module';
import { ReferenceModule } from '../reference/reference.module';
import { PAYROLL_CONFIG_ENTITIES } from './entities/payroll-config.entities';
import { EmployeeSalaryController, PAYROLL_CRUD_CONTROLLERS, PayrollConfigController } from './payroll-config.controller';
import { PayrollConfigService } from './payroll-config.service';
import { PayrollEmployeesService } from './payroll-employees.service';

@Module({
  imports: [EmployeesModule, ReferenceModule, TypeOrmModule.forFeature(PAYROLL_CONFIG_ENTITIES)],
  controllers: [PayrollConfigController, EmployeeSalaryController, ...PAYROLL_CRUD_CONTROLLERS],
  providers: [PayrollConfigService, PayrollEmployeesService],
  exports: [PayrollConfigService, PayrollEmployeesService],
})
export class PayrollModule {}
