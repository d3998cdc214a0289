import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboxRelay } from './outbox-relay';
import { OutboxPersonalData } from './outbox.personal-data';
import { OutboxCursor, OutboxEvent } from './outbox.entities';
import { OutboxRepository } from './outbox.repository';
import { Reactions, Reminders } from './reactions';
import { FeedReadRules } from './feed-read-rules';

/**
 * The outbox's relay and the modules' reactions (issue 42), global: subscribers (notifications,
 * tasks, webhooks) subscribe to the relay, and modules declare their reactions, in onModuleInit.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([OutboxEvent, OutboxCursor])],
  providers: [OutboxRepository, OutboxRelay, Reactions, Reminders, FeedReadRules, OutboxPersonalData],
  exports: [OutboxRelay, OutboxRepository, Reactions, Reminders, FeedReadRules],
})
export class OutboxModule {}
