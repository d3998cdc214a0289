import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TasksModule } from '../tasks/tasks.module';
import { UsersModule } from '../users/users.module';
import { OutboxEvent, Webhook, WebhookDelivery } from './entities/webhook.entities';
import { WebhookDeliveryProcessor } from './webhook-delivery.processor';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';
import { WebhooksRepository } from './webhooks.repository';

/**
 * Signed webhooks fed by the transactional outbox (common/outbox `recordEvent`, written with the audit log). A
 * subscription disabled after failing for a day opens a task for the Admins (TasksService).
 */
@Module({
  imports: [TypeOrmModule.forFeature([Webhook, OutboxEvent, WebhookDelivery]), TasksModule, UsersModule],
  controllers: [WebhooksController],
  providers: [WebhooksService, WebhookDeliveryProcessor, WebhooksRepository],
  exports: [WebhookDeliveryProcessor, WebhooksService],
})
export class WebhooksModule {}
