import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { isTaskSource } from '../common/outbox/task-sources';
import { EntityManager } from 'typeorm';
import { OutboxRelay, OutboxSubscriber, RelayedEvent } from '../common/outbox/outbox-relay';
import { Reactions, TaskChanges } from '../common/outbox/reactions';
import { Recipients } from '../users/recipients.service';
import { TasksService } from './tasks.service';

/**
 * The tasks the service makes itself (issue 42): a subscriber of the outbox relay that applies the
 * task changes the modules' reactions declare for each event (`<module>.reactions.ts`), in the
 * relay's transaction, so a task exists exactly when its event was handled: never lost to a crash
 * after the change, never made twice (and the unique index on source, source id and user holds).
 */
@Injectable()
export class TasksSubscriber implements OnModuleInit, OutboxSubscriber {
  readonly name = 'tasks';
  /** An event whose tasks cannot be written (a user deleted meanwhile) is passed over, not retried forever. */
  readonly skipAfter = 5;
  private readonly logger = new Logger('Tasks');

  constructor(
    private readonly relay: OutboxRelay,
    private readonly reactions: Reactions,
    private readonly tasks: TasksService,
    private readonly recipients: Recipients,
  ) {}

  onModuleInit(): void {
    this.relay.subscribe(this);
  }

  async handle(em: EntityManager, events: readonly RelayedEvent[]): Promise<void> {
    const resolve = this.recipients.resolver();
    for (const event of events)
      for (const reaction of this.reactions.of(event.event)) {
        if (!reaction.tasks) continue;
        // A reaction that cannot say what to do (its record gone) changes nothing; the batch goes on.
        const changes: TaskChanges = await reaction.tasks(event.data as never, event.eventId).catch((err: Error) => {
          this.logger.warn(`event ${event.eventId} (${event.event}) changes no task: ${err.message}`);
          return {};
        });
        for (const c of changes.complete ?? [])
          if (this.declared(c.source, event)) await this.tasks.completeAll(c.source, c.sourceIds, undefined, em);
        for (const t of changes.open ?? [])
          if (this.declared(t.source, event)) await this.tasks.assign(t.source, t.sourceId, await resolve(t.to), t, em);
      }
  }

  /** A source no module declared is a bug: logged as an error, its task passed over (the batch goes on). */
  private declared(source: string, event: RelayedEvent): boolean {
    if (isTaskSource(source)) return true;
    this.logger.error(`event ${event.eventId} (${event.event}) names task source ${source}, which no module declares`);
    return false;
  }
}
