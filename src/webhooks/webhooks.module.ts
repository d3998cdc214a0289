import './webhooks.config';
import { Module } from '@nestjs/common';
import { declareApiTag } from '../common/openapi/api-tags';
import { declareExtension } from '../common/meta/extensions';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EmployeesModule } from '../employees/employees.module';
import { EventsFeedController } from './feed/events-feed.controller';
import { EventsFeedRepository } from './feed/events-feed.repository';
import { Webhook, WebhookDelivery } from './entities/webhook.entities';
import { WebhookDeliveryProcessor } from './webhook-delivery.processor';
import { WebhooksController } from './webhooks.controller';
import { WebhooksReactions } from './webhooks.reactions';
import { WebhooksService } from './webhooks.service';

declareApiTag(
  'Webhooks',
  'Signed event deliveries to subscribers, and the same events as a feed read by cursor (GET /events)',
  230,
);

declareExtension({ code: 'webhooks', label: 'Webhooks', features: ['signed-deliveries', 'change-feed'] });

/**
 * Signed webhooks: a subscriber of the outbox relay (common/outbox; events are recorded with the audit log). A
 * subscription disabled after failing for a day records webhook.disabled, whose reaction opens a task for the Admins. The same
 * events as a feed read by cursor: GET /events (issue 43).
 */
@Module({
  imports: [TypeOrmModule.forFeature([Webhook, WebhookDelivery]), EmployeesModule],
  controllers: [WebhooksController, EventsFeedController],
  providers: [WebhooksService, WebhookDeliveryProcessor, EventsFeedRepository, WebhooksReactions],
  exports: [WebhookDeliveryProcessor, WebhooksService],
})
export class WebhooksModule {}
