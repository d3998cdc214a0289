import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { IdempotencyModule } from '../common/idempotency/idempotency.module';
import { ImportsModule } from '../imports/imports.module';
import { SettingsModule } from '../settings/settings.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { MaintenanceService } from './maintenance.service';

/** Periodic housekeeping across modules (the daily purge), as scheduled jobs. */
@Module({
  imports: [AuditModule, AuthModule, IdempotencyModule, SettingsModule, WebhooksModule, ImportsModule],
  providers: [MaintenanceService],
  exports: [MaintenanceService],
})
export class MaintenanceModule {}
