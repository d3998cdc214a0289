import { Injectable, OnModuleInit } from '@nestjs/common';
import { declareTaskSources } from '../common/outbox/task-sources';
import { declareNotificationKinds } from '../common/outbox/notification-kinds';
import { changedTo, rangeOf, Reactions } from '../common/outbox/reactions';
import { ApprovalsService } from '../approvals/approvals.service';
import { EmployeeFactsService } from '../employees/employee-facts.service';
import './leave.events';

declareTaskSources('leave-approval');

declareNotificationKinds({
  'leave.requested': { description: 'a leave request waits for your decision', email: true, inApp: true },
  'leave.decided': { description: 'your leave request was decided', email: true, inApp: true },
});

/** What the leave events do (issue 42): the approvers hear of a request and get its task; the employee hears of the decision. */
@Injectable()
export class LeaveReactions implements OnModuleInit {
  constructor(
    private readonly reactions: Reactions,
    private readonly employees: EmployeeFactsService,
    private readonly approvals: ApprovalsService,
  ) {}

  onModuleInit(): void {
    this.reactions.on('leave.requested', {
      notify: async (p) => {
        if (p.employee === null) return null;
        const name = await this.employees.nameOf(p.employee);
        return {
          to: await this.approvals.firstDeciders('leave', p.id, p.employee),
          title: `${name} requests leave`,
          body: `${name} asks for leave${rangeOf(p)}. Approve or reject it.`,
          link: `/leaves/${p.id}`,
        };
      },
      tasks: async (p) => {
        if (p.employee === null) return {};
        const name = await this.employees.nameOf(p.employee);
        return {
          open: [
            {
              source: 'leave-approval',
              sourceId: p.id,
              to: await this.approvals.firstDeciders('leave', p.id, p.employee),
              title: `Approve the leave request of ${name}`,
              description: `Leave request ${p.id}: approve or reject it (POST /leaves/${p.id}/approve or /reject).`,
              link: `/leaves/${p.id}`,
            },
          ],
        };
      },
    });
    this.reactions.on('leave.decided', {
      notify: async (p) => {
        if (p.employee === null) return null;
        const status = changedTo(p, 'status') ?? 'decided';
        return {
          to: [{ usersOf: p.employee }],
          title: `Your leave request is ${status.toLowerCase()}`,
          body: `Your leave request${rangeOf(p)} is ${status}.${await this.approvals.decisionsText('leave', p.id)}`,
          link: `/leaves/${p.id}`,
        };
      },
      tasks: async (p) => ({ complete: [{ source: 'leave-approval', sourceIds: [p.id] }] }),
    });
  }
}
