import { BankAccountsPersonalData } from './bank-accounts/bank-accounts.personal-data';
import { EmploymentHistoryPersonalData } from './history/employment-history.personal-data';
import { EmployeesPersonalData } from './employees.personal-data';
import { declareMobileModule } from '../settings/settings.registry';
import { SettingsModule } from '../settings/settings.module';
import { declareApiTag } from '../common/openapi/api-tags';
import { declareExtension } from '../common/meta/extensions';
import { EmployeesReminders } from './employees.reminders';
import { Module } from '@nestjs/common';
import { CalendarsModule } from '../calendars/calendars.module';
import { WorkingDaysController } from './working-days.controller';
import { EmployeeRefs } from './core/employee-refs';
import { EmployeeCalendars } from './history/employee-calendars';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ReferenceModule } from '../reference/reference.module';
import { EMPLOYEE_ITEM_CONTROLLERS } from './employee-items.controller';
import { EmployeeItemsService } from './employee-items.service';
import { EMPLOYEE_ITEM_ENTITIES } from './entities/employee-items.entity';
import { Employee } from './entities/employee.entity';
import { EmployeesController } from './employees.controller';
import { EmployeeAccessService } from './core/employee-access.service';
import { EmployeesRepository } from './core/employees.repository';
import { EmployeesService } from './employees.service';
import { EmployeesImport } from './employees.import';
import { EmploymentHistoryImport } from './history/employment-history.import';
import { EmployeeLookup } from './core/employee-lookup';
import { EmployeeFactsService } from './employee-facts.service';
import { EmployeeHooks } from './core/employee-hooks';
import { EmployeeExtensionPoints } from './core/employee-extension-points';
import { EmployeeMapper } from './core/employee-mapper';
import { EMPLOYMENT_HISTORY_ENTITIES } from './entities/employment-history.entities';
import { EmploymentHistoryController } from './history/employment-history.controller';
import { EmploymentHistoryJobs } from './history/employment-history.jobs';
import { EmploymentHistoryRepository } from './history/employment-history.repository';
import { EmploymentHistoryService } from './history/employment-history.service';
import { EmploymentHistoryWriter } from './history/employment-history.writer';
import { EmployeeBankAccount } from './bank-accounts/bank-account.entity';
import { BankAccountsController } from './bank-accounts/bank-accounts.controller';
import { BankAccountsImport } from './bank-accounts/bank-accounts.import';
import { BankAccountsReactions } from './bank-accounts/bank-accounts.reactions';
import { BankAccountsRepository } from './bank-accounts/bank-accounts.repository';
import { BankAccountsService } from './bank-accounts/bank-accounts.service';

declareApiTag(
  'Employees',
  'Employee records, their sub-resources (skills, educations, certifications, languages) and status messages',
  50,
);
declareApiTag(
  'Bank accounts',
  "Employees' bank accounts (IBAN by ISO 13616, BIC by ISO 9362), masked to whoever is not an Admin or the employee",
  60,
);
declareApiTag(
  'Employment history',
  'Dated changes of job title, department, pay grade, employment status, supervisor, approvers and salary; segments and as-of reads',
  70,
);

declareMobileModule({ key: 'staffdirectory', label: 'Staff Directory' });

declareExtension({
  code: 'employees',
  label: 'Employees',
  features: ['profiles', 'skills', 'certifications', 'staff-directory', 'employment-history', 'bank-accounts'],
});

@Module({
  imports: [
    CalendarsModule,
    ReferenceModule,
    SettingsModule,
    TypeOrmModule.forFeature([Employee, ...EMPLOYEE_ITEM_ENTITIES, ...EMPLOYMENT_HISTORY_ENTITIES, EmployeeBankAccount]),
  ],
  controllers: [
    EmployeesController,
    EmploymentHistoryController,
    BankAccountsController,
    WorkingDaysController,
    ...EMPLOYEE_ITEM_CONTROLLERS,
  ],
  providers: [
    EmployeesPersonalData,
    EmploymentHistoryPersonalData,
    BankAccountsPersonalData,
    EmployeesReminders,
    EmployeesService,
    EmployeeFactsService,
    EmployeeAccessService,
    EmployeeItemsService,
    EmployeesRepository,
    EmployeesImport,
    EmploymentHistoryImport,
    EmployeeLookup,
    EmployeeHooks,
    EmployeeExtensionPoints,
    EmployeeMapper,
    EmployeeRefs,
    EmployeeCalendars,
    EmploymentHistoryRepository,
    EmploymentHistoryService,
    EmploymentHistoryWriter,
    EmploymentHistoryJobs,
    BankAccountsService,
    BankAccountsRepository,
    BankAccountsImport,
    BankAccountsReactions,
  ],
  exports: [
    EmployeesService,
    EmployeeFactsService,
    EmployeeAccessService,
    EmployeesRepository,
    EmployeeLookup,
    EmploymentHistoryWriter,
    EmploymentHistoryService,
    BankAccountsRepository,
  ],
})
export class EmployeesModule {}
