import { Injectable, OnModuleInit } from '@nestjs/common';
import { declareTaskSources } from '../common/outbox/task-sources';
import { declareNotificationKinds } from '../common/outbox/notification-kinds';
import { changedTo, Reactions } from '../common/outbox/reactions';
import { ChangeEventPayload } from '../common/outbox/outbox';
import { ApprovalsService } from '../approvals/approvals.service';
import { EmployeeFactsService } from '../employees/employee-facts.service';
import { ExpenseClaimsRepository } from './expense-claims.repository';
import './expenses.events';

declareTaskSources('expense-approval');

declareNotificationKinds({
  'expense.submitted': { description: 'an expense claim waits for your decision', email: false, inApp: true },
  'expense.decided': { description: 'your expense claim was decided', email: false, inApp: true },
  'expense.paid': { description: 'your expense claim was paid', email: false, inApp: true },
});

/**
 * What the claims' events do (issue 68): the first step's approvers hear of a submission and get
 * its task (the chain opens the later steps' tasks); the employee hears of the decision and of the
 * payment.
 */
@Injectable()
export class ExpensesReactions implements OnModuleInit {
  constructor(
    private readonly reactions: Reactions,
    private readonly employees: EmployeeFactsService,
    private readonly approvals: ApprovalsService,
    private readonly claims: ExpenseClaimsRepository,
  ) {}

  /** "Taxi and hotel, Berlin (412.50 EUR)", or "an expense claim" once it is gone. */
  private async describe(p: ChangeEventPayload): Promise<string> {
    const claim = await this.claims.headOf(p.id);
    return claim ? `"${claim.title}" (${claim.total} ${claim.currency})` : 'an expense claim';
  }

  onModuleInit(): void {
    this.reactions.on('expense.submitted', {
      notify: async (p) => {
        if (p.employee === null) return null;
        const name = await this.employees.nameOf(p.employee);
        return {
          to: await this.approvals.firstDeciders('expense', p.id, p.employee),
          title: `${name} submitted an expense claim`,
          body: `${name} submitted the expense claim ${await this.describe(p)} for your approval.`,
          link: `/expense-claims/${p.id}`,
        };
      },
      tasks: async (p) => {
        if (p.employee === null) return {};
        const name = await this.employees.nameOf(p.employee);
        return {
          open: [
            {
              source: 'expense-approval',
              sourceId: p.id,
              to: await this.approvals.firstDeciders('expense', p.id, p.employee),
              title: `Approve an expense claim of ${name}`,
              description: `Expense claim ${p.id}: approve or reject it (POST /expense-claims/${p.id}/approve or /reject).`,
              link: `/expense-claims/${p.id}`,
            },
          ],
        };
      },
    });
    this.reactions.on('expense.decided', {
      notify: async (p) => {
        if (p.employee === null) return null;
        const status = changedTo(p, 'status') ?? 'decided';
        return {
          to: [{ usersOf: p.employee }],
          title: `Your expense claim is ${status.toLowerCase()}`,
          body: `Your expense claim ${await this.describe(p)} is ${status}.${await this.approvals.decisionsText('expense', p.id)}`,
          link: `/expense-claims/${p.id}`,
        };
      },
      tasks: async (p) => ({ complete: [{ source: 'expense-approval', sourceIds: [p.id] }] }),
    });
    this.reactions.on('expense.paid', {
      notify: async (p) => {
        if (p.employee === null) return null;
        const payroll = changedTo(p, 'paid_in');
        return {
          to: [{ usersOf: p.employee }],
          title: 'Your expense claim is paid',
          body: `Your expense claim ${await this.describe(p)} is paid${payroll ? ` with payroll ${payroll}` : ''}.`,
          link: `/expense-claims/${p.id}`,
        };
      },
    });
  }
}
