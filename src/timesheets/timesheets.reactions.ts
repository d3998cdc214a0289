import { Injectable, OnModuleInit } from '@nestjs/common';
import { declareTaskSources } from '../common/outbox/task-sources';
import { declareNotificationKinds } from '../common/outbox/notification-kinds';
import { changedTo, rangeOf, Reactions } from '../common/outbox/reactions';
import { ApprovalsService } from '../approvals/approvals.service';
import { EmployeeFactsService } from '../employees/employee-facts.service';
import './timesheets.events';

declareTaskSources('timesheet-approval');

declareNotificationKinds({
  'timesheet.submitted': { description: 'a time entry waits for your decision', email: false, inApp: true },
  'timesheet.decided': { description: 'your time entry was decided', email: false, inApp: true },
});

/** What the time entries' events do (issue 42): approvers hear of a submission and get its task; the employee hears of the decision. */
@Injectable()
export class TimesheetsReactions implements OnModuleInit {
  constructor(
    private readonly reactions: Reactions,
    private readonly employees: EmployeeFactsService,
    private readonly approvals: ApprovalsService,
  ) {}

  onModuleInit(): void {
    this.reactions.on('timesheet.submitted', {
      notify: async (p) => {
        if (p.employee === null) return null;
        const name = await this.employees.nameOf(p.employee);
        return {
          to: await this.approvals.firstDeciders('time', p.id, p.employee),
          title: `${name} submitted a time entry`,
          body: `${name} submitted a time entry${rangeOf(p)} for your approval.`,
          link: `/timesheets/${p.id}`,
        };
      },
      tasks: async (p) => {
        if (p.employee === null) return {};
        const name = await this.employees.nameOf(p.employee);
        return {
          open: [
            {
              source: 'timesheet-approval',
              sourceId: p.id,
              to: await this.approvals.firstDeciders('time', p.id, p.employee),
              title: `Approve a time entry of ${name}`,
              description: `Time entry ${p.id}: approve or reject it (POST /timesheets/${p.id}/approve or /reject).`,
              link: `/timesheets/${p.id}`,
            },
          ],
        };
      },
    });
    this.reactions.on('timesheet.decided', {
      notify: async (p) => {
        if (p.employee === null) return null;
        const status = changedTo(p, 'status') ?? 'decided';
        return {
          to: [{ usersOf: p.employee }],
          title: `Your time entry is ${status.toLowerCase()}`,
          body: `Your time entry${rangeOf(p)} is ${status}.${await this.approvals.decisionsText('time', p.id)}`,
          link: `/timesheets/${p.id}`,
        };
      },
      tasks: async (p) => ({ complete: [{ source: 'timesheet-approval', sourceIds: [p.id] }] }),
    });
  }
}
