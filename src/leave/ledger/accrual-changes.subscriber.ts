import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { OutboxRelay, OutboxSubscriber, RelayedEvent } from '../../common/outbox/outbox-relay';
import { OutboxEventName } from '../../common/outbox/outbox';

/** Whom the events below concern, one row each (an employee, or null: everyone), read by the accrual and the liability. */
export const ACCRUAL_CHANGES = 'leave_accrual_changes';
export const ACCRUAL_SUBSCRIBER = 'leave-accrual';

/**
 * The events that change what every employee is owed: what the policies read. Typed by their
 * owners' declarations (InternalEventPayloads): an event renamed or removed is a compile error here,
 * not a silent stop of the accruals.
 */
export const ACCRUAL_WIDE_EVENTS = [
  'leave_policy.changed',
  'leave_type.changed',
  'leave_period.changed',
  'department.changed',
  'pay_grade.changed',
  'employment_status.changed',
  'pay_frequency.changed',
] as const satisfies readonly OutboxEventName[];

/** The events that change one employee's facts (its dates, department, status, grade, history, pay frequency): their `employee`. */
export const ACCRUAL_EMPLOYEE_EVENTS = [
  'employee.created',
  'employee.updated',
  'employee.deleted',
  'employee.change_recorded',
  'employee.change_effective',
  'employee.terminated',
  'payroll_employee.changed',
] as const satisfies readonly OutboxEventName[];

const WIDE = new Set<string>(ACCRUAL_WIDE_EVENTS);
const OF_EMPLOYEE = new Set<string>(ACCRUAL_EMPLOYEE_EVENTS);

/**
 * The daily accrual's and the leave liability's subscription to the outbox (issue 64 item 4): each
 * event above becomes a row of leave_accrual_changes in the relay's transaction, so it is written
 * exactly once, after its change committed. The accrual and the liability read the rows after
 * their marks (AccrualRunsRepository.changedSince) once the relay has handed this subscriber what
 * was committed before them (catchUp).
 */
@Injectable()
export class AccrualChangesSubscriber implements OutboxSubscriber, OnModuleInit {
  readonly name = ACCRUAL_SUBSCRIBER;

  constructor(private readonly relay: OutboxRelay) {}

  onModuleInit(): void {
    this.relay.subscribe(this);
  }

  async handle(em: EntityManager, events: readonly RelayedEvent[]): Promise<void> {
    let everyone = false;
    const employees = new Set<number>();
    for (const e of events) {
      if (WIDE.has(e.event)) everyone = true;
      else if (OF_EMPLOYEE.has(e.event)) {
        const employee = (e.data as { employee?: unknown }).employee;
        if (typeof employee === 'number') employees.add(employee);
      }
    }
    const rows: Array<number | null> = everyone ? [null] : [...employees];
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500);
      await em.query(`INSERT INTO ${ACCRUAL_CHANGES} (employee_id) VALUES ${chunk.map(() => '(?)').join(', ')}`, chunk);
    }
  }

  /** Hands this subscriber every event committed before the call: a read of the changes then misses none of them. */
  catchUp(): Promise<void> {
    return this.relay.catchUp(ACCRUAL_SUBSCRIBER);
  }
}
