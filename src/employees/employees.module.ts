import { SettingsModule } from '../settings/settings.module';
import { EmployeesReminders } from './employees.reminders';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ReferenceModule } from '../reference/reference.module';
import { EMPLOYEE_ITEM_CONTROLLERS } from './employee-items.controller';
import { EmployeeItemsService } from './employee-items.service';
import { EMPLOYEE_ITEM_ENTITIES } from './entities/employee-items.entity';
import { Employee } from './entities/employee.entity';
import { EmployeesController } from './employees.controller';
import { EmployeeAccessService } from './employee-access.service';
import { EmployeesRepository } from './employees.repository';
import { EmployeesService } from './employees.service';
import { EmployeesImport } from './employees.import';
import { EmployeeLookup } from './employee-lookup';
import { EmployeeFactsService } from './employee-facts.service';

@Module({
  imports: [ReferenceModule, SettingsModule, TypeOrmModule.forFeature([Employee, ...EMPLOYEE_ITEM_ENTITIES])],
  controllers: [EmployeesController, ...EMPLOYEE_ITEM_CONTROLLERS],
  providers: [
    EmployeesReminders,
    EmployeesService,
    EmployeeFactsService,
    EmployeeAccessService,
    EmployeeItemsService,
    EmployeesRepository,
    EmployeesImport,
    EmployeeLookup,
  ],
  exports: [EmployeesService, EmployeeFactsService, EmployeeAccessService, EmployeesRepository, EmployeeLookup],
})
export class EmployeesModule {}
