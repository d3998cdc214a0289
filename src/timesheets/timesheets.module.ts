import { declareMobileModule } from '../settings/settings.registry';
import { TimesheetsPayrollInputs } from './timesheets.payroll-inputs';
import { SettingsModule } from '../settings/settings.module';
import { declareApiTag } from '../common/openapi/api-tags';
import './timesheets.approvals';
import { declareExtension } from '../common/meta/extensions';
import { TimesheetsReactions } from './timesheets.reactions';
import { TimesheetsReminders } from './timesheets.reminders';
import { Module } from '@nestjs/common';
import { ApprovalsModule } from '../approvals/approvals.module';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EmployeesModule } from '../employees/employees.module';
import { Project, TimeEntry } from './entities/timesheet.entities';
import { EmployeeTimesheetsController, ProjectsController, TimesheetsController } from './timesheets.controller';
import { TimesheetsService } from './timesheets.service';
import { TimesheetsRepository } from './timesheets.repository';
import { TimesheetsPersonalData } from './timesheets.personal-data';

declareApiTag('Timesheets', 'Projects and time entries', 130);

declareMobileModule({ key: 'timesheets', label: 'Timesheets' });

declareExtension({ code: 'timesheets', label: 'Timesheets', features: ['projects', 'time-entries'] });

@Module({
  imports: [EmployeesModule, SettingsModule, ApprovalsModule, TypeOrmModule.forFeature([Project, TimeEntry])],
  controllers: [ProjectsController, TimesheetsController, EmployeeTimesheetsController],
  providers: [
    TimesheetsPersonalData,
    TimesheetsService,
    TimesheetsRepository,
    TimesheetsReactions,
    TimesheetsReminders,
    TimesheetsPayrollInputs,
  ],
  exports: [TimesheetsService, TimesheetsRepository],
})
export class TimesheetsModule {}
