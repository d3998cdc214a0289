import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ChangeEventPayload, WebhookEventPayloads } from '../common/outbox/outbox';
import { OutboxRelay, OutboxSubscriber, RelayedEvent } from '../common/outbox/outbox-relay';
import { DocumentJobsService } from '../documents/document-jobs.service';
import { EmployeeFactsService } from '../employees/employee-facts.service';
import { PayrollRunsService } from '../payroll/runs/payroll-runs.service';
import { ReferenceService } from '../reference/reference.service';
import { UsersService } from '../users/users.service';
import { kindOf } from './notification-kinds';
import { NOTHING_WRITTEN, NotificationWriter, OutgoingNotification, Written } from './notification-writer.service';

/** What one event tells whom. */
type Message = Omit<OutgoingNotification, 'kind' | 'sourceKey'>;

const statusOf = (p: ChangeEventPayload) => {
  const change = p.changes.status;
  return Array.isArray(change) ? String(change[1]) : null;
};

/**
 * Notifications from the outbox (issue 30), a subscriber of the relay (issue 42): events are written
 * in the transaction of their change, so a rolled-back change notifies nobody and a crash loses
 * nothing. A batch's notifications (one per event and user: a unique index) are inserted in the
 * transaction that moves the subscriber's cursor; after the commit the new notifications go to the
 * open streams. Recipients who switched a kind off in the feed get nothing of it (mandatory kinds aside).
 */
@Injectable()
export class NotificationDispatcher implements OnModuleInit, OutboxSubscriber {
  readonly name = 'notifications';
  /** A notification that cannot be written (its recipient deleted meanwhile) is passed over, not retried forever. */
  readonly skipAfter = 5;
  private readonly logger = new Logger('Notifications');

  constructor(
    private readonly relay: OutboxRelay,
    private readonly users: UsersService,
    private readonly employees: EmployeeFactsService,
    private readonly reference: ReferenceService,
    private readonly payrolls: PayrollRunsService,
    private readonly documents: DocumentJobsService,
    private readonly writer: NotificationWriter,
  ) {}

  onModuleInit(): void {
    this.relay.subscribe(this);
  }

  async handle(em: EntityManager, events: readonly RelayedEvent[]): Promise<() => Promise<void>> {
    const items: OutgoingNotification[] = [];
    for (const event of events) {
      const kind = kindOf(event.event);
      if (!kind) continue;
      const message = await this.messageOf(event).catch((err: Error) => {
        this.logger.warn(`event ${event.eventId} (${event.event}) notifies nobody: ${err.message}`);
        return null;
      });
      if (message) items.push({ kind: kind.kind, ...message, sourceKey: `event:${event.eventId}` });
    }
    const written: Written = items.length ? await this.writer.write(em, items) : NOTHING_WRITTEN;
    return () => this.writer.committed(written);
  }

  /** The recipients and text of an event's notification; null for an event that notifies nobody. */
  private async messageOf(event: RelayedEvent): Promise<Message | null> {
    const payload = event.data;
    switch (event.event) {
      case 'leave.requested':
      case 'timesheet.submitted': {
        const p = payload as ChangeEventPayload;
        if (p.employee === null) return null;
        const name = await this.nameOf(p.employee);
        const leave = event.event === 'leave.requested';
        return {
          userIds: await this.users.approverUsersOf(p.employee),
          title: leave ? `${name} requests leave` : `${name} submitted a time entry`,
          body: leave
            ? `${name} asks for leave${rangeOf(p)}. Approve or reject it.`
            : `${name} submitted a time entry${rangeOf(p)} for your approval.`,
          link: leave ? `/leaves/${p.id}` : `/timesheets/${p.id}`,
        };
      }
      case 'leave.decided':
      case 'timesheet.decided': {
        const p = payload as ChangeEventPayload;
        if (p.employee === null) return null;
        const status = statusOf(p) ?? 'decided';
        const leave = event.event === 'leave.decided';
        return {
          userIds: await this.usersOfEmployee(p.employee),
          title: leave ? `Your leave request is ${status.toLowerCase()}` : `Your time entry is ${status.toLowerCase()}`,
          body: leave ? `Your leave request${rangeOf(p)} is ${status}.` : `Your time entry${rangeOf(p)} is ${status}.`,
          link: leave ? `/leaves/${p.id}` : `/timesheets/${p.id}`,
        };
      }
      case 'payroll.failed': {
        const p = payload as WebhookEventPayloads['payroll.failed'];
        const payroll = await this.payrolls.summaryOf(p.id);
        if (!payroll) return null;
        const departments = await this.reference.ancestors(payroll.department);
        return {
          userIds: [...(await this.users.adminIds()), ...(await this.users.administratorsOf(departments))],
          title: `Payroll ${payroll.name} failed`,
          body: `Processing payroll ${payroll.name} failed with ${p.errors} errors. See its errors, correct and process it again.`,
          link: `/payroll_config/payrolls/${p.id}/errors`,
        };
      }
      case 'payslip.sent': {
        const p = payload as WebhookEventPayloads['payslip.sent'];
        const payroll = await this.payrolls.summaryOf(p.payroll);
        return {
          userIds: await this.usersOfEmployee(p.employee),
          title: 'Your payslip is in your inbox',
          body: `Your payslip${payroll ? ` for ${payroll.name}` : ''} was e-mailed to you; it is also among your documents.`,
          link: `/employees/${p.employee}/payslips/${p.id}`,
        };
      }
      case 'document.expiring':
      case 'document.expired': {
        const p = payload as WebhookEventPayloads['document.expiring'];
        const name = await this.nameOf(p.employee);
        const when =
          p.days_left < 0
            ? `expired on ${p.valid_until}`
            : p.days_left === 0
              ? 'expires today'
              : `expires in ${p.days_left} days (${p.valid_until})`;
        return {
          userIds: await this.documents.recipientsOf(p.employee, p.document_type),
          title: `${p.name} of ${name} ${p.days_left < 0 ? 'expired' : 'expires soon'}`,
          body: `${p.name} of ${name} ${when}. Upload the renewed document as a new version.`,
          link: `/employees/${p.employee}/documents/${p.id}`,
        };
      }
      case 'task.assigned': {
        const p = payload as WebhookEventPayloads['task.assigned'];
        return {
          userIds: [p.user],
          title: `New task: ${p.title}`,
          body: `${p.title}${p.due_date ? ` (due ${p.due_date})` : ''}, priority ${p.priority}.`,
          link: '/tasks',
        };
      }
      default:
        return null;
    }
  }

  private async nameOf(employeeId: number): Promise<string> {
    return (await this.employees.displayName(employeeId)) ?? `Employee ${employeeId}`;
  }

  private async usersOfEmployee(employeeId: number): Promise<number[]> {
    return (await this.users.usersOfEmployees([employeeId])).map((u) => u.user);
  }
}

/** " from 2026-12-01 to 2026-12-03" when the change carries dates. */
function rangeOf(p: ChangeEventPayload): string {
  const at = (field: string) => {
    const c = p.changes[field];
    return Array.isArray(c) && typeof c[1] === 'string' ? c[1].slice(0, 10) : null;
  };
  const start = at('date_start') ?? at('date');
  const end = at('date_end');
  if (!start) return '';
  return end && end !== start ? ` from ${start} to ${end}` : ` for ${start}`;
}
