import { Injectable, OnModuleInit } from '@nestjs/common';
import { declareNotificationKinds } from '../common/outbox/notification-kinds';
import { Reactions } from '../common/outbox/reactions';
import { EmployeeFactsService } from '../employees/employee-facts.service';
import { ApprovalsService } from './approvals.service';
import { approvalKind } from './kinds/approval-kinds';
import { ApprovalKind } from './entities/approval.entities';
import './approvals.events';

declareNotificationKinds({
  'approval.step_decided': { description: 'a request moved to a step you decide', email: true, inApp: true },
  'approval.escalated': { description: 'a request waited too long and you joined its approvers', email: true, inApp: true },
  'approval.approver_left': {
    description: 'an approver of a request left the company and nobody else could decide its step',
    email: true,
    inApp: true,
  },
});

/**
 * What the chains' events do (issue 45): when a step opens after another, its approvers hear of
 * it and get the task (the first step's hear of the request itself: leave.requested,
 * timesheet.submitted); supervisors who join a late step likewise. The employee hears only the
 * end (leave.decided, timesheet.decided).
 */
@Injectable()
export class ApprovalReactions implements OnModuleInit {
  constructor(
    private readonly reactions: Reactions,
    private readonly approvals: ApprovalsService,
    private readonly employees: EmployeeFactsService,
  ) {}

  onModuleInit(): void {
    this.reactions.on('approval.step_decided', {
      notify: async (p) => {
        if (p.next_step === null) return null;
        const { path, noun } = approvalKind(p.kind);
        const name = await this.employees.nameOf(p.employee);
        return {
          to: await this.approvals.recipients(p.kind, p.id, p.next_step),
          title: `The ${noun} of ${name} waits for your decision`,
          body: `Step ${p.step} approved the ${noun} ${p.id} of ${name}; step ${p.next_step} is yours. Approve or reject it.`,
          link: `/${path}/${p.id}`,
        };
      },
      tasks: async (p) => {
        if (p.next_step === null) return {};
        return {
          complete: [{ source: approvalKind(p.kind).taskSource, sourceIds: [p.id] }],
          open: [await this.task(p.kind, p.id, p.employee, p.next_step)],
        };
      },
    });
    this.reactions.on('approval.escalated', {
      notify: async (p) => {
        const { path, noun } = approvalKind(p.kind);
        const name = await this.employees.nameOf(p.employee);
        return {
          to: p.added.map((id) => ({ usersOf: id })),
          title: `The ${noun} of ${name} waits too long`,
          body: `Step ${p.step} of the ${noun} ${p.id} of ${name} has waited past its policy's days: you joined its approvers.`,
          link: `/${path}/${p.id}`,
        };
      },
      tasks: async (p) => ({
        open: [{ ...(await this.task(p.kind, p.id, p.employee, p.step)), to: p.added.map((id) => ({ usersOf: id })) }],
      }),
    });
    // A leaver's open step: the Admins hear of it when it went to them; its deciders have its task (those who had it keep theirs).
    this.reactions.on('approval.approver_left', {
      notify: async (p) => {
        if (!p.to_admins) return null;
        const { path, noun } = approvalKind(p.kind);
        const [name, leaver] = await Promise.all([this.employees.nameOf(p.employee), this.employees.nameOf(p.left)]);
        return {
          to: [{ admins: true }],
          title: `The ${noun} of ${name} waits for the Admins`,
          body: `${leaver} left the company; nobody else could decide step ${p.step} of the ${noun} ${p.id} of ${name}. Approve or reject it.`,
          link: `/${path}/${p.id}`,
        };
      },
      tasks: async (p) => ({ open: [await this.task(p.kind, p.id, p.employee, p.step)] }),
    });
  }

  /** The approval task of a request's open step. */
  async task(kind: ApprovalKind, id: number, employee: number, step: number) {
    const { taskSource, path, noun } = approvalKind(kind);
    const name = await this.employees.nameOf(employee);
    return {
      source: taskSource,
      sourceId: id,
      to: await this.approvals.recipients(kind, id, step),
      title: `Approve the ${noun} of ${name}`,
      description: `${noun[0].toUpperCase()}${noun.slice(1)} ${id}: approve or reject it (POST /${path}/${id}/approve or /reject).`,
      link: `/${path}/${id}`,
    };
  }
}
