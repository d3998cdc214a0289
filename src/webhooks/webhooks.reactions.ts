import { Injectable, OnModuleInit } from '@nestjs/common';
import { Reactions } from '../common/outbox/reactions';
import { declareTaskSources } from '../common/outbox/task-sources';
import './webhooks.events';

declareTaskSources('webhook-disabled');

/** What webhook.disabled does: the Admins get the task of mending the receiver and switching it on again. */
@Injectable()
export class WebhooksReactions implements OnModuleInit {
  constructor(private readonly reactions: Reactions) {}

  onModuleInit(): void {
    this.reactions.on('webhook.disabled', {
      tasks: async (p) => ({
        open: [
          {
            source: 'webhook-disabled',
            sourceId: p.webhook,
            to: [{ admins: true }],
            title: `Webhook ${p.webhook} was disabled`,
            description: `Deliveries to ${p.url} failed for a day (${p.reason}). Fix the receiver, then PUT /webhooks/${p.webhook} {"active": true}.`,
            priority: 'High',
            link: `/webhooks/${p.webhook}/deliveries`,
          },
        ],
      }),
    });
  }
}
