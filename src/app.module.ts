import { DocumentPatchesModule } from './common/openapi/document-patches';
import { DynamicModule, Module, ModuleMetadata } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { QueryParamsGuard } from './common/validation/query-params.guard';
import { AttendanceModule } from './attendance/attendance.module';
import { AuthModule } from './auth/auth.module';
import { AccessGuard } from './common/auth/access.guard';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter';
import { IdempotencyModule } from './common/idempotency/idempotency.module';
import { ImportKindsModule } from './common/import/import-kinds.module';
import { PayrollInputsModule } from './common/payroll-inputs/payroll-inputs.module';
import { PersonalDataModule } from './common/privacy/personal-data.module';
import { PrivacyModule } from './privacy/privacy.module';
import { ClockModule } from './common/time/company-clock';
import { StorageModule } from './common/storage/storage.module';
import { ImportsModule } from './imports/imports.module';
import { DocumentsModule } from './documents/documents.module';
import { OutboxModule } from './common/outbox/outbox.module';
import { QueueModule } from './common/queue/queue.module';
import { AppConfig } from './config/config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { EchoModule } from './echo/echo.module';
import { EmployeesModule } from './employees/employees.module';
import { HealthModule } from './health/health.module';
import { InsightsModule } from './insights/insights.module';
import { CalendarsModule } from './calendars/calendars.module';
import { CustomFieldsModule } from './custom-fields/custom-fields.module';
import { ChecklistsModule } from './checklists/checklists.module';
import { ExpensesModule } from './expenses/expenses.module';
import { LeaveModule } from './leave/leave.module';
import { ApprovalsModule } from './approvals/approvals.module';
import { MailModule } from './mail/mail.module';
import { MetaModule } from './meta/meta.module';
import { PayrollModule } from './payroll/payroll.module';
import { ReferenceModule } from './reference/reference.module';
import { SettingsModule } from './settings/settings.module';
import { TasksModule } from './tasks/tasks.module';
import { AuditModule } from './audit/audit.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { MaintenanceModule } from './maintenance/maintenance.module';
import { NotificationsModule } from './notifications/notifications.module';
import { TimesheetsModule } from './timesheets/timesheets.module';
import { UserDirectoryModule } from './users/user-directory.service';
import { UsersModule } from './users/users.module';
import { ScimModule } from './scim/scim.module';
import { MetricsModule } from './common/metrics/metrics.module';

@Module({})
export class AppModule {
  /** `imports` adds modules to the application (the test suites mount fixtures this way). */
  static forRoot(config: AppConfig, imports: NonNullable<ModuleMetadata['imports']> = []): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule,
        MetricsModule,
        QueueModule.forRoot(config),
        OutboxModule,
        MailModule.forRoot(config),
        IdempotencyModule,
        ImportKindsModule,
        DocumentPatchesModule,
        PayrollInputsModule,
        PersonalDataModule,
        ClockModule,
        StorageModule,
        SettingsModule,
        AuthModule,
        UserDirectoryModule,
        UsersModule,
        ScimModule,
        EchoModule,
        HealthModule,
        ReferenceModule,
        EmployeesModule,
        AttendanceModule,
        ApprovalsModule,
        CalendarsModule,
        CustomFieldsModule,
        ChecklistsModule,
        ExpensesModule,
        PrivacyModule,
        LeaveModule,
        TimesheetsModule,
        PayrollModule,
        MetaModule,
        InsightsModule,
        TasksModule,
        AuditModule,
        WebhooksModule,
        MaintenanceModule,
        ImportsModule,
        DocumentsModule,
        NotificationsModule,
        ...imports,
      ],
      providers: [
        { provide: APP_GUARD, useClass: AccessGuard },
        { provide: APP_GUARD, useClass: QueryParamsGuard },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
      ],
    };
  }
}
