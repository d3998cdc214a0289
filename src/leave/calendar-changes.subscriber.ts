import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { OutboxRelay, OutboxSubscriber, RelayedEvent } from '../common/outbox/outbox-relay';
import { OutboxEventPayloads } from '../common/outbox/outbox';
import { EmployeeFactsService } from '../employees/employee-facts.service';
import { LeaveRecomputeService } from './leave-recompute.service';

export const CALENDAR_CHANGES_SUBSCRIBER = 'leave-calendar';

/**
 * Leave requests follow their working days (issue 65 item 5): a holiday added, changed or removed
 * (`calendar.changed`, one event per date) recomputes the open requests over that date; a recorded,
 * corrected or cancelled employment change that names the calendar or cancels a change
 * (`employee.change_recorded`) recomputes the employee's open requests from its effective date on.
 * In the relay's transaction, with the cursor: each event is applied once, and a recompute that
 * finds the days as they should be writes nothing.
 */
@Injectable()
export class CalendarChangesSubscriber implements OutboxSubscriber, OnModuleInit {
  readonly name = CALENDAR_CHANGES_SUBSCRIBER;

  constructor(
    private readonly relay: OutboxRelay,
    private readonly recompute: LeaveRecomputeService,
    private readonly employees: EmployeeFactsService,
  ) {}

  onModuleInit(): void {
    this.relay.subscribe(this);
  }

  async handle(em: EntityManager, events: readonly RelayedEvent[]): Promise<void> {
    // The changes' own fields, not the events' lists: a change setting the calendar back to the
    // default (null) is not in its event's `changes`, which name what a create sets to a value.
    const recorded = events
      .filter((e) => e.event === 'employee.change_recorded')
      .map((e) => e.data as OutboxEventPayloads['employee.change_recorded']);
    const changes = await this.employees.changeFields(recorded.filter((p) => p.employee !== null).map((p) => p.id));
    for (const e of events) {
      if (e.event === 'calendar.changed') {
        const p = e.data as OutboxEventPayloads['calendar.changed'];
        const why = `calendar ${p.calendar}: holiday ${p.change} on ${p.date}`;
        await this.recompute.overlapping(em, { from: p.date, to: p.date, calendar: p.calendar }, why, `cal${e.seq}`);
      } else if (e.event === 'employee.change_recorded') {
        const p = e.data as OutboxEventPayloads['employee.change_recorded'];
        const change = changes.get(p.id);
        if (p.employee === null || !change || !(change.fields.includes('calendar') || 'status' in p.changes)) continue;
        const why = `employment change ${p.id}: calendar from ${change.effectiveDate}`;
        await this.recompute.overlapping(em, { from: change.effectiveDate, to: null, employee: p.employee }, why, `cal${e.seq}`);
      }
    }
  }
}
