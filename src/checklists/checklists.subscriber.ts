import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ChangeEventPayload, OutboxEventName } from '../common/outbox/outbox';
import { OutboxRelay, OutboxSubscriber, RelayedEvent } from '../common/outbox/outbox-relay';
import { ChecklistStarter } from './checklist-starter';
import { ChecklistsRepository } from './checklists.repository';

/** The events that start, move or cancel checklists: typed by their owners' declarations. */
const EVENTS = [
  'employee.created',
  'employee.updated',
  'employee.change_recorded',
  'employee.terminated',
  'document.uploaded',
] as const satisfies readonly OutboxEventName[];
const HEARD = new Set<string>(EVENTS);

/**
 * Checklists start when what triggers them is recorded (issue 67), not when it takes effect: a
 * subscriber of the outbox relay, so that each recorded hire, termination or change is handled
 * exactly once, after it committed, in the relay's transaction (a crash between the two loses
 * nothing). The employees module never names checklists.
 *
 * - `employee.created`: hire checklists from the joined date; `employee.updated` moving
 *   joined_date moves them.
 * - `employee.updated` setting termination_date: termination checklists from that day; moving it
 *   moves them; clearing it cancels them.
 * - `employee.change_recorded`: a change setting the department starts transfer checklists, one
 *   setting a template's `fields` its change checklists (from the change's effective date); a
 *   correction moves them to the new change and date; a cancelled change cancels them.
 * - `employee.terminated`: the leaver's open onboarding is cancelled, with the reason.
 * - `document.uploaded`: the employee's open items waiting for a document of its type are Completed.
 */
@Injectable()
export class ChecklistsSubscriber implements OutboxSubscriber, OnModuleInit {
  readonly name = 'checklists';
  /** An event whose employee or change is gone is passed over, not retried forever. */
  readonly skipAfter = 5;

  constructor(
    private readonly relay: OutboxRelay,
    private readonly starter: ChecklistStarter,
    private readonly repository: ChecklistsRepository,
  ) {}

  onModuleInit(): void {
    this.relay.subscribe(this);
  }

  async handle(em: EntityManager, events: readonly RelayedEvent[]): Promise<void> {
    for (const e of events) if (HEARD.has(e.event)) await this.one(em, e.event, e.data as ChangeEventPayload);
  }

  private async one(em: EntityManager, event: string, data: ChangeEventPayload): Promise<void> {
    const employeeId = data.employee ?? data.id;
    const changes = data.changes ?? {};
    if (event === 'employee.created') {
      const employee = await this.repository.employee(em, employeeId);
      if (employee) await this.starter.start(em, employeeId, 'hire', 'hire', employee.joinedDate);
    } else if (event === 'employee.updated') {
      const joined = changes.joined_date?.[1];
      if (typeof joined === 'string') await this.starter.move(em, employeeId, 'hire', joined);
      if (!changes.termination_date) return;
      const [before, after] = changes.termination_date as [string | null, string | null];
      if (after === null) await this.starter.cancel(em, employeeId, 'termination', 'the termination was withdrawn');
      else if (before === null) await this.starter.start(em, employeeId, 'termination', 'termination', after);
      else await this.starter.move(em, employeeId, 'termination', after);
    } else if (event === 'employee.change_recorded') {
      const change = await this.repository.change(em, data.id);
      if (!change) return;
      const origin = `change:${change.id}`;
      if (change.status === 'Cancelled') await this.starter.cancel(em, employeeId, origin, 'the change was cancelled');
      else if (
        change.corrects !== null &&
        (await this.starter.move(em, employeeId, `change:${change.corrects}`, change.effectiveDate, origin))
      )
        return;
      else {
        if ('department' in change.fields)
          await this.starter.start(em, employeeId, 'transfer', origin, change.effectiveDate, change.fields);
        await this.starter.start(em, employeeId, 'change', origin, change.effectiveDate, change.fields);
      }
    } else if (event === 'document.uploaded') {
      const doc = await this.repository.document(em, data.id);
      if (doc) await this.starter.documentArrived(em, doc.employeeId, doc.documentTypeId);
    } else if (event === 'employee.terminated') {
      const employee = await this.repository.employee(em, employeeId);
      if (employee?.terminationDate) await this.starter.leaverLeft(em, employeeId, employee.terminationDate);
    }
  }
}
