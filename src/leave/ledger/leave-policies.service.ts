import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ReferenceCrud } from '../../common/crud/crud';
import { DomainException, ErrorDetail, ValidationException } from '../../common/errors/domain.exception';
import { ListSpec } from '../../common/paging/list-request';
import { LeavePolicyAssignmentDto, LeavePolicyDto } from '../dto/leave-ledger.dto';
import { LeaveType } from '../entities/leave.entities';
import { LeavePolicy, LeavePolicyAssignment } from '../entities/leave-ledger.entities';
import { LeaveLedgerRepository } from './leave-ledger.repository';

export const POLICY_LIST: Partial<ListSpec> = {
  filterFields: { leave_type: { column: 'r.leave_type_id', type: 'int' } },
};

export const ASSIGNMENT_LIST: Partial<ListSpec> = {
  sortFields: { id: 'r.id', valid_from: 'r.valid_from' },
  searchColumns: [],
  filterFields: {
    policy: { column: 'r.policy_id', type: 'int' },
    employee: { column: 'r.employee_id', type: 'int' },
    department: { column: 'r.department_id', type: 'int' },
  },
};

/** The tables an assignment's targets refer to. */
const TARGETS = {
  employee: 'employees',
  department: 'departments',
  employment_status: 'employment_statuses',
  pay_grade: 'pay_grades',
} as const;

/** Leave policies and who they apply to (issue 31): CRUD, audited, Admin writes. */
@Injectable()
export class LeavePoliciesService {
  readonly policies: ReferenceCrud<LeavePolicy, LeavePolicyDto>;
  readonly assignments: ReferenceCrud<LeavePolicyAssignment, LeavePolicyAssignmentDto>;

  constructor(
    @InjectDataSource() ds: DataSource,
    private readonly repo: LeaveLedgerRepository,
  ) {
    const policies = ds.getRepository(LeavePolicy);
    const assignments = ds.getRepository(LeavePolicyAssignment);
    this.policies = new ReferenceCrud<LeavePolicy, LeavePolicyDto>({
      label: 'Leave policy',
      resource: 'leave-policies',
      event: 'leave_policy.changed',
      repo: policies,
      fields: {
        name: 'name',
        leave_type: 'leaveTypeId',
        accrual: 'accrual',
        amount: 'amount',
        prorate_joiners: 'prorateJoiners',
        waiting_days: 'waitingDays',
        max_balance: 'maxBalance',
        carry_over_max: 'carryOverMax',
        carry_over_expiry_months: 'carryOverExpiryMonths',
        allow_negative: 'allowNegative',
        encashable: 'encashable',
        encashment_max: 'encashmentMax',
      },
      check: async (p, id) => {
        if (!(await ds.getRepository(LeaveType).exists({ where: { id: p.leaveTypeId } })))
          throw ValidationException.field('leave_type', 'does not exist');
        if (id !== undefined) {
          const before = await policies.findOneByOrFail({ id });
          if (before.leaveTypeId !== p.leaveTypeId && (await assignments.exists({ where: { policyId: id } })))
            throw new DomainException('IN_USE', 'The leave type of an assigned policy cannot change: make a new policy', [
              { field: 'leave_type', message: 'the policy is assigned' },
            ]);
        }
      },
      listSpec: POLICY_LIST,
    });
    this.assignments = new ReferenceCrud<LeavePolicyAssignment, LeavePolicyAssignmentDto>({
      label: 'Leave policy assignment',
      resource: 'leave-policy-assignments',
      event: 'leave_policy.changed',
      repo: assignments,
      uniqueName: false,
      fields: {
        policy: 'policyId',
        employee: 'employeeId',
        department: 'departmentId',
        employment_status: 'employmentStatusId',
        pay_grade: 'payGradeId',
        valid_from: 'validFrom',
        valid_to: 'validTo',
      },
      check: (a) => this.checkAssignment(a),
      listSpec: ASSIGNMENT_LIST,
    });
  }

  /** One target at most (none: everyone), each existing; the policy exists; valid_to not before valid_from. */
  private async checkAssignment(a: LeavePolicyAssignment): Promise<void> {
    const problems: ErrorDetail[] = [];
    const values = {
      employee: a.employeeId ?? null,
      department: a.departmentId ?? null,
      employment_status: a.employmentStatusId ?? null,
      pay_grade: a.payGradeId ?? null,
    };
    const set = Object.entries(values).filter(([, v]) => v !== null);
    if (set.length > 1)
      for (const [field] of set)
        problems.push({ field, message: 'one of employee, department, employment_status, pay_grade at most' });
    for (const [field, value] of set) {
      if (!(await this.repo.exists(TARGETS[field as keyof typeof TARGETS], value as number)))
        problems.push({ field, message: 'does not exist' });
    }
    if (!(await this.repo.policyExists(a.policyId))) problems.push({ field: 'policy', message: 'does not exist' });
    if (a.validTo && a.validTo < a.validFrom) problems.push({ field: 'valid_to', message: 'must not be before valid_from' });
    if (problems.length) throw new ValidationException(problems);
  }
}
