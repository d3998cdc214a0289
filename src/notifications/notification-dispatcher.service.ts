import { Injectable, Logger, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { OutboxRelay, OutboxSubscriber, RelayedEvent } from '../common/outbox/outbox-relay';
import { Reactions } from '../common/outbox/reactions';
import { Recipients } from '../users/recipients.service';
import { assertNotificationKinds, notificationKind } from '../common/outbox/notification-kinds';
import { NOTHING_WRITTEN, NotificationWriter, OutgoingNotification, Written } from './notification-writer.service';

/**
 * Notifications from the outbox (issue 30), a subscriber of the relay (issue 42): events are written
 * in the transaction of their change, so a rolled-back change notifies nobody and a crash loses
 * nothing. What an event tells whom is the producing module's reaction (`<module>.reactions.ts`);
 * a batch's notifications (one per event and user: a unique index) are inserted in the
 * transaction that moves the subscriber's cursor; after the commit the new notifications go to the
 * open streams. Recipients who switched a kind off in the feed get nothing of it (mandatory kinds aside).
 */
@Injectable()
export class NotificationDispatcher implements OnModuleInit, OnApplicationBootstrap, OutboxSubscriber {
  readonly name = 'notifications';
  /** A notification that cannot be written (its recipient deleted meanwhile) is passed over, not retried forever. */
  readonly skipAfter = 5;
  private readonly logger = new Logger('Notifications');

  constructor(
    private readonly relay: OutboxRelay,
    private readonly reactions: Reactions,
    private readonly writer: NotificationWriter,
    private readonly recipients: Recipients,
  ) {}

  onModuleInit(): void {
    this.relay.subscribe(this);
  }

  /** Every module has declared its reactions by now: one that notifies of an undeclared kind stops the start. */
  onApplicationBootstrap(): void {
    assertNotificationKinds(this.reactions.notifying(), 'a reaction');
  }

  async handle(em: EntityManager, events: readonly RelayedEvent[]): Promise<() => Promise<void>> {
    const items: OutgoingNotification[] = [];
    const resolve = this.recipients.resolver();
    for (const event of events) {
      const kind = notificationKind(event.event);
      if (!kind) continue;
      for (const reaction of this.reactions.of(event.event)) {
        if (!reaction.notify) continue;
        const message = await reaction.notify(event.data as never, event.eventId).catch((err: Error) => {
          this.logger.warn(`event ${event.eventId} (${event.event}) notifies nobody: ${err.message}`);
          return null;
        });
        if (message)
          items.push({
            kind: kind.kind,
            userIds: await resolve(message.to),
            title: message.title,
            body: message.body,
            link: message.link,
            sourceKey: `event:${event.eventId}`,
          });
      }
    }
    const written: Written = items.length ? await this.writer.write(em, items) : NOTHING_WRITTEN;
    return () => this.writer.committed(written);
  }
}
