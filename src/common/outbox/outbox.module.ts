import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutboxRelay } from './outbox-relay';
import { OutboxCursor, OutboxEvent } from './outbox.entities';
import { OutboxRepository } from './outbox.repository';

/** The outbox's relay (issue 42), global: subscribers (notifications, tasks, webhooks) subscribe to it in onModuleInit. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([OutboxEvent, OutboxCursor])],
  providers: [OutboxRepository, OutboxRelay],
  exports: [OutboxRelay, OutboxRepository],
})
export class OutboxModule {}
