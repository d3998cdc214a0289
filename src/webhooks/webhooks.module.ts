import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EmployeesModule } from '../employees/employees.module';
import { TasksModule } from '../tasks/tasks.module';
import { EventsFeedController } from './feed/events-feed.controller';
import { EventsFeedRepository } from './feed/events-feed.repository';
import { UsersModule } from '../users/users.module';
import { Webhook, WebhookDelivery } from './entities/webhook.entities';
import { WebhookDeliveryProcessor } from './webhook-delivery.processor';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/**
 * Signed webhooks: a subscriber of the outbox relay (common/outbox; events are recorded with the audit log). A
 * subscription disabled after failing for a day opens a task for the Admins (TasksService). The same
 * events as a feed read by cursor: GET /events (issue 43).
 */
@Module({
  imports: [TypeOrmModule.forFeature([Webhook, WebhookDelivery]), EmployeesModule, TasksModule, UsersModule],
  controllers: [WebhooksController, EventsFeedController],
  providers: [WebhooksService, WebhookDeliveryProcessor, EventsFeedRepository],
  exports: [WebhookDeliveryProcessor, WebhooksService],
})
export class WebhooksModule {}
