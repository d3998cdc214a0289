import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { TasksModule } from '../tasks/tasks.module';
import { UsersModule } from '../users/users.module';
import { Webhook, WebhookDelivery } from './entities/webhook.entities';
import { WebhookDeliveryProcessor } from './webhook-delivery.processor';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/**
 * Signed webhooks: a subscriber of the outbox relay (common/outbox; events are recorded with the audit log). A
 * subscription disabled after failing for a day opens a task for the Admins (TasksService).
 */
@Module({
  imports: [TypeOrmModule.forFeature([Webhook, WebhookDelivery]), TasksModule, UsersModule],
  controllers: [WebhooksController],
  providers: [WebhooksService, WebhookDeliveryProcessor],
  exports: [WebhookDeliveryProcessor, WebhooksService],
})
export class WebhooksModule {}
