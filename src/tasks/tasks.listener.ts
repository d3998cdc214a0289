import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import {
  DOCUMENT_REMINDER_EVENT,
  DOCUMENT_SETTLED_EVENT,
  DocumentReminderEvent,
  DocumentSettledEvent,
} from '../documents/documents.events';
import { EmployeeFactsService } from '../employees/employee-facts.service';
import { LEAVE_DECIDED_EVENT, LEAVE_REQUESTED_EVENT, LeaveEvent } from '../leave/leave.events';
import {
  PAYROLL_COMPLETED_EVENT,
  PAYROLL_FAILED_EVENT,
  PAYROLL_PROCESSED_EVENT,
  PAYSLIP_DELIVERY_EVENT,
  PayrollEvent,
  PayslipDeliveryEvent,
} from '../payroll/payroll.events';
import {
  TIMESHEET_DECIDED_EVENT,
  TIMESHEET_SUBMITTED_EVENT,
  TimesheetDecidedEvent,
  TimesheetSubmittedEvent,
} from '../timesheets/timesheets.events';
import {
  USER_CREATED_EVENT,
  USER_PASSWORD_CHANGED_EVENT,
  UserCreatedEvent,
  UserPasswordChangedEvent,
} from '../users/users.events';
import { UsersService } from '../users/users.service';
import { TasksService } from './tasks.service';

/**
 * The tasks the service makes itself, from the events the other modules emit (each imported from
 * its `*.events.ts`): at most one per source record and user (the unique index), completed when
 * the thing to do is done.
 */
@Injectable()
export class TasksListener {
  constructor(
    private readonly tasks: TasksService,
    private readonly users: UsersService,
    private readonly employees: EmployeeFactsService,
  ) {}

  @OnEvent(USER_CREATED_EVENT)
  async userCreated(e: UserCreatedEvent): Promise<void> {
    if (!e.temporaryPassword) return;
    await this.tasks.safely(`task for user ${e.userId}`, () =>
      this.tasks.assign('password-change', e.userId, [e.userId], {
        title: 'Change your temporary password',
        description: 'Your account was created with a temporary password: choose your own (POST /users/me/password).',
        priority: 'High',
        link: '/users/me/password',
      }),
    );
  }

  @OnEvent(USER_PASSWORD_CHANGED_EVENT)
  async passwordChanged(e: UserPasswordChangedEvent): Promise<void> {
    await this.tasks.safely(`password task of user ${e.userId}`, () => this.tasks.completeAll('password-change', [e.userId]));
  }

  @OnEvent(LEAVE_REQUESTED_EVENT)
  async leaveRequested(e: LeaveEvent): Promise<void> {
    await this.tasks.safely(`approval task of leave request ${e.requestId}`, async () => {
      const name = (await this.employees.displayName(e.employeeId)) ?? `employee ${e.employeeId}`;
      await this.tasks.assign('leave-approval', e.requestId, await this.users.approverUsersOf(e.employeeId), {
        title: `Approve the leave request of ${name}`,
        description: `Leave request ${e.requestId}: approve or reject it (POST /leaves/${e.requestId}/approve or /reject).`,
        link: `/leaves/${e.requestId}`,
      });
    });
  }

  @OnEvent(LEAVE_DECIDED_EVENT)
  async leaveDecided(e: LeaveEvent): Promise<void> {
    await this.tasks.safely(`approval tasks of leave request ${e.requestId}`, () =>
      this.tasks.completeAll('leave-approval', [e.requestId]),
    );
  }

  @OnEvent(TIMESHEET_SUBMITTED_EVENT)
  async timesheetSubmitted(e: TimesheetSubmittedEvent): Promise<void> {
    await this.tasks.safely(`approval task of time entry ${e.entryId}`, async () => {
      const name = (await this.employees.displayName(e.employeeId)) ?? `employee ${e.employeeId}`;
      await this.tasks.assign('timesheet-approval', e.entryId, await this.users.approverUsersOf(e.employeeId), {
        title: `Approve a time entry of ${name}`,
        description: `Time entry ${e.entryId}: approve or reject it (POST /timesheets/${e.entryId}/approve or /reject).`,
        link: `/timesheets/${e.entryId}`,
      });
    });
  }

  @OnEvent(TIMESHEET_DECIDED_EVENT)
  async timesheetDecided(e: TimesheetDecidedEvent): Promise<void> {
    await this.tasks.safely(`approval tasks of time entry ${e.entryId}`, () =>
      this.tasks.completeAll('timesheet-approval', [e.entryId]),
    );
  }

  @OnEvent(PAYROLL_PROCESSED_EVENT)
  async payrollProcessed(e: PayrollEvent): Promise<void> {
    await this.tasks.safely(`review task of payroll ${e.payrollId}`, async () => {
      await this.tasks.completeAll('payroll-failed', [e.payrollId]);
      await this.tasks.assign('payroll-review', e.payrollId, await this.users.adminIds(), {
        title: `Review payroll ${e.payrollId} and generate its payslips`,
        description: `${e.employees} employees processed: check the data grid, then POST /payroll_config/payrolls/${e.payrollId}/generate-payslips.`,
        link: `/payroll_config/payrolls/${e.payrollId}/data`,
      });
    });
  }

  @OnEvent(PAYROLL_FAILED_EVENT)
  async payrollFailed(e: PayrollEvent): Promise<void> {
    await this.tasks.safely(`failure task of payroll ${e.payrollId}`, async () => {
      await this.tasks.assign('payroll-failed', e.payrollId, await this.users.adminIds(), {
        title: `Payroll ${e.payrollId} failed to process`,
        description: `${e.errors} errors: read them, fix the columns or salaries, and process it again.`,
        priority: 'High',
        link: `/payroll_config/payrolls/${e.payrollId}/errors`,
      });
    });
  }

  @OnEvent(PAYROLL_COMPLETED_EVENT)
  async payrollCompleted(e: PayrollEvent): Promise<void> {
    await this.tasks.safely(`review tasks of payroll ${e.payrollId}`, () =>
      this.tasks.completeAll('payroll-review', [e.payrollId]),
    );
  }

  /** A payroll with failed payslip e-mails: one task per payroll for the Admins, done once none has failed. */
  @OnEvent(PAYSLIP_DELIVERY_EVENT)
  async payslipDelivery(e: PayslipDeliveryEvent): Promise<void> {
    await this.tasks.safely(`delivery of payslip ${e.payslipId}`, async () => {
      if (!e.failedInPayroll) {
        await this.tasks.completeAll('payslip-delivery', [e.payrollId]);
        return;
      }
      if (e.status !== 'failed') return;
      await this.tasks.assign('payslip-delivery', e.payrollId, await this.users.adminIds(), {
        title: `Payslip e-mails of payroll ${e.payrollId} failed`,
        description:
          `The payslips with delivery_status failed say why (GET /payroll_config/payrolls/${e.payrollId}/payslips?filters={"delivery_status":"failed"}); ` +
          `fix the address or the mail server and send them again (POST .../payslips/{payslipId}/send).`,
        priority: 'High',
        link: `/payroll_config/payrolls/${e.payrollId}/payslips`,
      });
    });
  }

  @OnEvent(DOCUMENT_REMINDER_EVENT)
  async documentReminder(e: DocumentReminderEvent): Promise<void> {
    await this.tasks.safely(`reminder ${e.reminderId} of document ${e.documentId}`, async () => {
      const name = (await this.employees.displayName(e.employeeId)) ?? `employee ${e.employeeId}`;
      const when =
        e.daysLeft === null
          ? `expired (valid until ${e.validUntil})`
          : e.daysLeft === 0
            ? `expires today (${e.validUntil})`
            : `expires in ${e.daysLeft} day${e.daysLeft === 1 ? '' : 's'} (${e.validUntil})`;
      await this.tasks.assign('document-expiry', e.reminderId, e.userIds, {
        title: `${e.documentName} of ${name} ${when}`,
        description: `Upload the renewed document as a new version (POST /employees/${e.employeeId}/documents/${e.documentId}/versions).`,
        priority: e.daysLeft === null || e.daysLeft <= 7 ? 'High' : 'Normal',
        dueDate: e.validUntil,
        link: `/employees/${e.employeeId}/documents/${e.documentId}`,
      });
    });
  }

  @OnEvent(DOCUMENT_SETTLED_EVENT)
  async documentSettled(e: DocumentSettledEvent): Promise<void> {
    await this.tasks.safely(`reminder tasks of document ${e.documentId}`, () =>
      this.tasks.completeAll('document-expiry', e.reminderIds),
    );
  }
}
