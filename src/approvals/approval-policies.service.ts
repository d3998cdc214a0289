import { Injectable } from '@nestjs/common';
import { APPROVAL_KINDS, approvalKind, POLICY_CONDITIONS } from './kinds/approval-kinds';
import { DELEGATION_LIST_SPEC } from './approval-views';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, LessThanOrEqual, MoreThanOrEqual, Not } from 'typeorm';
import { AuthUser } from '../common/auth/auth-user';
import { recordAudit } from '../common/audit/audit-log';
import { transaction } from '../common/database/transaction';
import { DomainException, ErrorDetail, NotFoundException, ValidationException } from '../common/errors/domain.exception';
import { DateRangeListQueryDto, ListQueryDto } from '../common/paging/list-query.dto';
import { findTablePage, ListSpec, parseListQuery } from '../common/paging/list-request';
import { Page } from '../common/paging/page';
import { ApprovalsRepository } from './approvals.repository';
import { EMPLOYEE_ROLE } from './approval-chain';
import {
  ApprovalDelegationDto,
  ApprovalPolicyDto,
  CreateApprovalDelegationDto,
  CreateApprovalPolicyDto,
  UpdateApprovalDelegationDto,
  UpdateApprovalPolicyDto,
} from './dto/approvals.dto';
import { ApprovalDelegation, ApprovalPolicy, StepMode } from './entities/approval.entities';

export const POLICY_LIST_SPEC: ListSpec = {
  idColumn: 'p.id',
  sortFields: { id: 'p.id', name: 'p.name' },
  filterFields: { applies_to: { column: 'p.applies_to', type: 'string', values: APPROVAL_KINDS } },
};

function toPolicyDto(p: ApprovalPolicy): ApprovalPolicyDto {
  return {
    id: p.id,
    name: p.name,
    applies_to: p.appliesTo,
    conditions: p.conditions,
    steps: p.steps,
    escalate_after_days: p.escalateAfterDays,
  };
}

function toDelegationDto(d: ApprovalDelegation): ApprovalDelegationDto {
  return { id: d.id, delegator: d.delegatorId, delegate: d.delegateId, date_start: d.dateStart, date_end: d.dateEnd };
}

/** /approval-policies (Admin) and /approval-delegations (an approver its own, the Admin anyone's): issue 45. */
@Injectable()
export class ApprovalPoliciesService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly repository: ApprovalsRepository,
  ) {}

  async listPolicies(query: ListQueryDto): Promise<Page<ApprovalPolicyDto>> {
    const page = await findTablePage(this.ds.getRepository(ApprovalPolicy), 'p', parseListQuery(query, POLICY_LIST_SPEC));
    return page.map(toPolicyDto);
  }

  async getPolicy(id: number): Promise<ApprovalPolicyDto> {
    const p = await this.ds.getRepository(ApprovalPolicy).findOne({ where: { id } });
    if (!p) throw new NotFoundException('Approval policy');
    return toPolicyDto(p);
  }

  createPolicy(dto: CreateApprovalPolicyDto): Promise<ApprovalPolicyDto> {
    return this.savePolicy(null, dto);
  }

  async updatePolicy(id: number, dto: UpdateApprovalPolicyDto): Promise<ApprovalPolicyDto> {
    const current = await this.getPolicy(id);
    return this.savePolicy(id, {
      name: dto.name ?? current.name,
      applies_to: dto.applies_to ?? current.applies_to,
      conditions: dto.conditions ?? current.conditions,
      steps: dto.steps ?? current.steps,
      escalate_after_days: dto.escalate_after_days === undefined ? current.escalate_after_days : dto.escalate_after_days,
    });
  }

  /** Requests under decision keep the chain they were made under: a removed policy changes nothing for them. */
  async removePolicy(id: number): Promise<{ id: number }> {
    const before = await this.getPolicy(id);
    await transaction(this.ds, async (em) => {
      await em.delete(ApprovalPolicy, { id });
      await recordAudit(em, { action: 'delete', resource: 'approval-policies', resourceId: id, before });
    });
    return { id };
  }

  private async savePolicy(id: number | null, dto: CreateApprovalPolicyDto): Promise<ApprovalPolicyDto> {
    const conditions = dto.conditions ?? {};
    const problems: ErrorDetail[] = [];
    const allowed = approvalKind(dto.applies_to).conditions ?? ['departments'];
    for (const name of POLICY_CONDITIONS) {
      const value = conditions[name];
      const set = Array.isArray(value) ? value.length > 0 : value !== undefined && value !== null;
      if (set && !allowed.includes(name))
        problems.push({ field: `conditions.${name}`, message: `does not apply to ${dto.applies_to} policies` });
    }
    await this.missing('leave_types', 'conditions.leave_types', conditions.leave_types ?? [], problems);
    await this.missing('departments', 'conditions.departments', conditions.departments ?? [], problems);
    for (const [i, step] of dto.steps.entries()) {
      const named = step.approvers.flatMap((r) => {
        const m = EMPLOYEE_ROLE.exec(r);
        return m ? [Number(m[1])] : [];
      });
      await this.missing('employees', `steps[${i}].approvers`, named, problems);
    }
    if (problems.length) throw new ValidationException(problems);
    const values = {
      name: dto.name,
      appliesTo: dto.applies_to,
      conditions: {
        ...(conditions.leave_types?.length ? { leave_types: conditions.leave_types } : {}),
        ...(conditions.min_days !== undefined ? { min_days: conditions.min_days } : {}),
        ...(conditions.min_amount !== undefined ? { min_amount: conditions.min_amount } : {}),
        ...(conditions.departments?.length ? { departments: conditions.departments } : {}),
      },
      steps: dto.steps.map((s) => ({ approvers: [...new Set(s.approvers)], mode: s.mode as StepMode })),
      escalateAfterDays: dto.escalate_after_days ?? null,
    };
    const saved = await transaction(this.ds, async (em) => {
      const repo = em.getRepository(ApprovalPolicy);
      const before = id === null ? null : await repo.findOneByOrFail({ id });
      const row = id === null ? repo.create(values) : Object.assign(before!, values);
      const after = await repo.save(row);
      await recordAudit(em, {
        action: id === null ? 'create' : 'update',
        resource: 'approval-policies',
        resourceId: after.id,
        before: before && toPolicyDto({ ...before }),
        after: toPolicyDto(after),
      });
      return after;
    });
    return toPolicyDto(saved);
  }

  /** Adds a problem at `field` naming the ids of `table` that do not exist. */
  private async missing(
    table: 'employees' | 'departments' | 'leave_types',
    field: string,
    ids: number[],
    problems: ErrorDetail[],
  ): Promise<void> {
    const absent = await this.repository.missingIds(table, ids);
    if (absent.length) problems.push({ field, message: `${absent.join(', ')} do${absent.length === 1 ? 'es' : ''} not exist` });
  }

  async listDelegations(caller: AuthUser, query: DateRangeListQueryDto): Promise<Page<ApprovalDelegationDto>> {
    const req = parseListQuery(query, DELEGATION_LIST_SPEC);
    const page = await this.repository.delegationsPage(caller.level === 'Admin' ? null : (caller.employeeId ?? 0), req);
    return page.map(toDelegationDto);
  }

  async getDelegation(caller: AuthUser, id: number): Promise<ApprovalDelegationDto> {
    const d = await this.ds.getRepository(ApprovalDelegation).findOne({ where: { id } });
    if (!d || (caller.level !== 'Admin' && caller.employeeId !== d.delegatorId && caller.employeeId !== d.delegateId))
      throw new NotFoundException('Delegation');
    return toDelegationDto(d);
  }

  createDelegation(caller: AuthUser, dto: CreateApprovalDelegationDto): Promise<ApprovalDelegationDto> {
    return this.saveDelegation(caller, null, dto);
  }

  async updateDelegation(caller: AuthUser, id: number, dto: UpdateApprovalDelegationDto): Promise<ApprovalDelegationDto> {
    const current = await this.ownDelegation(caller, id);
    return this.saveDelegation(caller, id, {
      delegator: dto.delegator ?? current.delegator,
      delegate: dto.delegate ?? current.delegate,
      date_start: dto.date_start ?? current.date_start,
      date_end: dto.date_end ?? current.date_end,
    });
  }

  async removeDelegation(caller: AuthUser, id: number): Promise<{ id: number }> {
    const before = await this.ownDelegation(caller, id);
    await transaction(this.ds, async (em) => {
      await em.delete(ApprovalDelegation, { id });
      await recordAudit(em, {
        action: 'delete',
        resource: 'approval-delegations',
        resourceId: id,
        employee: before.delegator,
        before,
      });
    });
    return { id };
  }

  /** A delegation the caller may change: the Admin any, an approver its own (delegates read theirs only). */
  private async ownDelegation(caller: AuthUser, id: number): Promise<ApprovalDelegationDto> {
    const d = await this.getDelegation(caller, id);
    if (caller.level !== 'Admin' && caller.employeeId !== d.delegator)
      throw new DomainException('FORBIDDEN', 'Only the delegator or an Admin change a delegation');
    return d;
  }

  private async saveDelegation(
    caller: AuthUser,
    id: number | null,
    dto: CreateApprovalDelegationDto,
  ): Promise<ApprovalDelegationDto> {
    const delegator = dto.delegator ?? caller.employeeId;
    if (delegator === null) throw ValidationException.field('delegator', 'is required: no employee is linked to your user');
    if (caller.level !== 'Admin' && delegator !== caller.employeeId)
      throw new DomainException('FORBIDDEN', 'You may delegate your own approvals only');
    const problems: ErrorDetail[] = [];
    if (dto.delegate === delegator) problems.push({ field: 'delegate', message: 'must be someone else than the delegator' });
    if (dto.date_end < dto.date_start) problems.push({ field: 'date_end', message: 'must not be before date_start' });
    const absent = await this.repository.missingIds('employees', [delegator, dto.delegate]);
    if (absent.includes(delegator)) problems.push({ field: 'delegator', message: 'does not exist' });
    if (absent.includes(dto.delegate)) problems.push({ field: 'delegate', message: 'does not exist' });
    if (problems.length) throw new ValidationException(problems);
    const saved = await transaction(this.ds, async (em) => {
      const repo = em.getRepository(ApprovalDelegation);
      const overlapping = await repo.findOne({
        where: {
          delegatorId: delegator,
          dateStart: LessThanOrEqual(dto.date_end),
          dateEnd: MoreThanOrEqual(dto.date_start),
          ...(id === null ? {} : { id: Not(id) }),
        },
      });
      if (overlapping)
        throw ValidationException.field('date_start', `overlaps delegation ${overlapping.id} of the same delegator`);
      // A delegate who has delegated on some of these days back to the delegator (directly or
      // through others) makes a cycle: a step would find nobody who decides.
      const seen = new Set<number>([dto.delegate]);
      for (let frontier = [dto.delegate]; frontier.length && seen.size < 1000;) {
        const onward = await repo.find({
          where: {
            delegatorId: In(frontier),
            dateStart: LessThanOrEqual(dto.date_end),
            dateEnd: MoreThanOrEqual(dto.date_start),
            ...(id === null ? {} : { id: Not(id) }),
          },
        });
        if (onward.some((d) => d.delegateId === delegator))
          throw ValidationException.field('delegate', `delegates back to ${delegator} on some of these days: a cycle`);
        frontier = onward.map((d) => d.delegateId).filter((e) => !seen.has(e));
        frontier.forEach((e) => seen.add(e));
      }
      const before = id === null ? null : await repo.findOneByOrFail({ id });
      const values = { delegatorId: delegator, delegateId: dto.delegate, dateStart: dto.date_start, dateEnd: dto.date_end };
      const after = await repo.save(id === null ? repo.create(values) : Object.assign(before!, values));
      await recordAudit(em, {
        action: id === null ? 'create' : 'update',
        resource: 'approval-delegations',
        resourceId: after.id,
        employee: delegator,
        before: before && toDelegationDto({ ...before }),
        after: toDelegationDto(after),
      });
      return after;
    });
    return toDelegationDto(saved);
  }
}
