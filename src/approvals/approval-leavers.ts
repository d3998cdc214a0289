import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { recordEvent } from '../common/outbox/outbox';
import { EmployeesService } from '../employees/employees.service';
import { lockEmployeeRows } from '../employees/core/employee-lock';
import { withoutLeaver } from './approval-chain';
import { APPROVAL_STATES } from './approval.states';
import { Approval, ApprovalApprover, ApprovalDecision } from './entities/approval.entities';
import './approvals.events';

/**
 * A leaver stops deciding (issue 67): when an employee's termination takes effect (the employment
 * job on its day, or a termination dated today), the open steps it decides go on without it, in the
 * same transaction: to their other approvers, or to the Admins when nobody else can complete them
 * (`approval.approver_left`, whose reaction gives the step's deciders its task). Steps that open
 * later skip it (ApprovalsService.open reads who has left by the day).
 */
@Injectable()
export class ApprovalLeavers implements OnModuleInit {
  constructor(private readonly employees: EmployeesService) {}

  onModuleInit(): void {
    this.employees.onTermination(async (em, employeeId) => {
      await this.release(em, employeeId);
    });
  }

  /** Moves the leaver's open steps on; how many. */
  async release(em: EntityManager, leaver: number): Promise<number> {
    const rows = await em.getRepository(ApprovalApprover).find({ where: { employeeId: leaver }, select: { approvalId: true } });
    if (!rows.length) return 0;
    const ids = [...new Set(rows.map((r) => r.approvalId))];
    const subjects = await em
      .getRepository(Approval)
      .find({ where: { id: In(ids), status: 'Pending' }, select: { id: true, employeeId: true } });
    // The requesters' locks, as a decision on their requests takes them (ascending: no deadlock between two such sets).
    await lockEmployeeRows(
      em,
      [...new Set(subjects.map((a) => a.employeeId))].sort((a, b) => a - b),
    );
    let moved = 0;
    for (const { id } of subjects) {
      const a = await em.getRepository(Approval).findOne({ where: { id } });
      if (!a || a.status !== 'Pending') continue;
      const index = a.currentStep - 1;
      const approved = new Set(
        (await em.getRepository(ApprovalDecision).find({ where: { approvalId: id, step: a.currentStep, decision: 'approve' } }))
          .map((d) => d.employeeId)
          .filter((e): e is number => e !== null),
      );
      const before = a.steps[index];
      const after = withoutLeaver(before, leaver, approved);
      if (after === before) continue;
      APPROVAL_STATES.assert('advance', a.status);
      await em
        .getRepository(Approval)
        .update({ id, status: a.status }, { steps: a.steps.map((s, i) => (i === index ? after : s)) });
      await em.getRepository(ApprovalApprover).delete({ approvalId: id, employeeId: leaver });
      const toAdmins = after.admins && !before.admins;
      if (toAdmins) await em.getRepository(ApprovalApprover).insert({ approvalId: id, step: a.currentStep, employeeId: null });
      await recordEvent(em, 'approval.approver_left', {
        id: a.requestId,
        kind: a.kind,
        employee: a.employeeId,
        step: a.currentStep,
        left: leaver,
        to_admins: toAdmins,
      });
      moved++;
    }
    return moved;
  }
}
