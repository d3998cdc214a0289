import { Injectable, OnModuleInit } from '@nestjs/common';
import { ApprovalAbsences, declareApprovalKind } from '../approvals/kinds/approval-kinds';
import { LeaveRepository } from './leave.repository';

/** Leave requests go through approval chains: their kind, how they are named and reached, and their tasks. */
declareApprovalKind({
  kind: 'leave',
  noun: 'leave request',
  path: 'leaves',
  taskSource: 'leave-approval',
  conditions: ['leave_types', 'min_days', 'departments'],
});

/** Who is on approved leave on a day: the chains pass over an approver who is away (issue 45). */
@Injectable()
export class LeaveApprovals implements OnModuleInit {
  constructor(
    private readonly absences: ApprovalAbsences,
    private readonly repository: LeaveRepository,
  ) {}

  onModuleInit(): void {
    this.absences.readWith((em, ids, day) => this.repository.awayOn(em, ids, day));
  }
}
