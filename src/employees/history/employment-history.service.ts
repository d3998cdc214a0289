import { Injectable } from '@nestjs/common';
import { CompanyClock } from '../../common/time/company-clock';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { recordAudit } from '../../common/audit/audit-log';
import { AuthUser } from '../../common/auth/auth-user';
import { SET_REPLACEMENT } from '../../common/database/transaction';
import { DomainException, ErrorDetail, NotFoundException, ValidationException } from '../../common/errors/domain.exception';
import { EmployeeAccessService, employeeRef, EmployeeScope } from '../core/employee-access.service';
import { withEmployeeLock } from '../core/employee-lock';
import { EmployeeMapper } from '../core/employee-mapper';
import { assertEmployeeVersion } from '../core/employee-version';
import { effectiveDateProblem } from '../core/employee-rules';
import { EmployeesRepository } from '../core/employees.repository';
import { Employee } from '../entities/employee.entity';
import {
  ChangeFieldsDto,
  CorrectChangeDto,
  EmploymentChangeDto,
  RecordChangeDto,
  SegmentDto,
} from './dto/employment-history.dto';
import { EmploymentChange } from '../entities/employment-history.entities';
import { EmploymentHistoryRepository } from './employment-history.repository';
import {
  CHANGE_STATES,
  CHANGES,
  ChangeInput,
  EmploymentHistoryWriter,
  fieldOf,
  storedFields,
  toRecorded,
} from './employment-history.writer';
import { inDepartments, segmentOnDay, setFields, toChangeDto, toSegmentDto } from './employment-history.views';
import { DatedField, DatedValues, mergeExtra, segmentsAt } from './employment-history';
import { EmployeeExtensionPoints } from '../core/employee-extension-points';
import { ExtensionReader } from '../core/employee-extensions';

/**
 * Employment history's routes (issue 43, docs/api/decisions.md §19): the changes and segments of an employee,
 * recording, cancelling and correcting a change, each checked against the caller's scope and
 * fields and run under the employee's lock through the writer.
 */
@Injectable()
export class EmploymentHistoryService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly repository: EmploymentHistoryRepository,
    private readonly writer: EmploymentHistoryWriter,
    private readonly access: EmployeeAccessService,
    private readonly mapper: EmployeeMapper,
    private readonly employees: EmployeesRepository,
    private readonly clock: CompanyClock,
    private readonly extensions: EmployeeExtensionPoints,
  ) {}

  /** A change as `reader` sees it: the dated values of other modules' properties it sets through their view. */
  private async changeDto(reader: ExtensionReader, c: EmploymentChange, salaries: boolean): Promise<EmploymentChangeDto> {
    const { extra } = storedFields(c.fields);
    const seen = Object.keys(extra).length ? await this.extensions.datedView(reader, c.employeeId, extra) : {};
    // Only the keys the change sets.
    const own = (p: string) => Object.fromEntries(Object.entries(seen[p] ?? {}).filter(([key]) => key in extra[p]));
    return toChangeDto(c, salaries, Object.fromEntries(Object.keys(extra).map((p) => [p, own(p)])));
  }

  /**
   * The changes; a Restricted Admin sees those that took effect on a day the employee was in its
   * departments (its transferee's past in another department is not its to read).
   */
  async changes(caller: AuthUser, employeeId: number): Promise<EmploymentChangeDto[]> {
    const { employee, scope } = await this.access.visible(caller, employeeId);
    const salaries = await this.access.administers(caller, employee);
    const changes = await this.repository.changesOf(null, employeeId);
    const segments = scope.kind === 'departments' ? segmentsAt(changes.map(toRecorded)) : [];
    const shown = changes.filter((c) => {
      if (scope.kind !== 'departments') return true;
      const on = segmentOnDay(segments, c.effectiveDate);
      return on !== null && inDepartments(scope, on);
    });
    return Promise.all(shown.map((c) => this.changeDto({ caller, scope }, c, salaries)));
  }

  /** The segments as recorded at `knownAt` (default now); a Restricted Admin's only those in its departments. */
  async history(caller: AuthUser, employeeId: number, knownAt?: string): Promise<SegmentDto[]> {
    const { employee, scope } = await this.access.visible(caller, employeeId);
    const salaries = await this.access.administers(caller, employee);
    const changes = (await this.repository.changesOf(null, employeeId)).map(toRecorded);
    const shown = segmentsAt(changes, knownAt ? new Date(knownAt) : undefined).filter((s) => inDepartments(scope, s));
    return Promise.all(
      shown.map(async (s) => toSegmentDto(s, salaries, await this.extensions.datedView({ caller, scope }, employeeId, s.extra))),
    );
  }

  /** Records a change; with `ifMatch` (an ETag of GET /employees/{id}) only on that version of the employee, else 412. */
  async record(caller: AuthUser, employeeId: number, dto: RecordChangeDto, ifMatch?: string): Promise<EmploymentChangeDto> {
    const { employee, scope } = await this.access.visible(caller, employeeId);
    const input: ChangeInput = {
      effectiveDate: dto.effective_date,
      reason: dto.reason ?? null,
      fields: setFields(dto.fields),
      salary: dto.salary ?? null,
    };
    await this.validate(caller, scope, employee, input, dto.fields);
    const change = await withEmployeeLock(
      this.ds,
      employeeId,
      async (em) => {
        if (ifMatch) await assertEmployeeVersion(em, this.mapper, employeeId, ifMatch, { caller, scope });
        return this.writer.recordIn(em, employeeId, input, caller.id);
      },
      SET_REPLACEMENT,
    );
    return this.changeDto({ caller, scope }, change, true);
  }

  /** Cancels a Scheduled change (409 INVALID_STATE otherwise). */
  async cancel(caller: AuthUser, employeeId: number, changeId: number): Promise<EmploymentChangeDto> {
    const { employee, scope } = await this.access.visible(caller, employeeId);
    const found = await this.repository.change(changeId);
    if (!found || found.employeeId !== employeeId) throw new NotFoundException('Change');
    await this.assertMayChange(caller, scope, employee, toRecorded(found).fields, found.salary !== null);
    const cancelled = await withEmployeeLock(
      this.ds,
      employeeId,
      async (em) => {
        const changes = await this.repository.changesOf(em, employeeId);
        const c = changes.find((x) => x.id === changeId)!;
        const before = segmentsAt(changes.map(toRecorded));
        CHANGE_STATES.assert('cancel', c.status);
        const at = this.writer.nextInstant(changes);
        if (!(await CHANGE_STATES.move(em, EmploymentChange, { id: changeId, status: c.status }, 'cancel', { cancelledAt: at })))
          throw CHANGE_STATES.invalid('cancel', c.status);
        Object.assign(c, { status: 'Cancelled', cancelledAt: at });
        await this.writer.settle(em, employeeId, changes, before);
        await recordAudit(em, {
          action: 'cancel',
          resource: CHANGES,
          event: 'employee.change_recorded',
          resourceId: changeId,
          employee: employeeId,
          before: { status: 'Scheduled' },
          after: { status: 'Cancelled' },
        });
        return c;
      },
      SET_REPLACEMENT,
    );
    return this.changeDto({ caller, scope }, cancelled, true);
  }

  /** Records a correction of a Scheduled or Effective change: what the body names replaces the corrected change's. */
  async correct(caller: AuthUser, employeeId: number, changeId: number, dto: CorrectChangeDto): Promise<EmploymentChangeDto> {
    const { employee, scope } = await this.access.visible(caller, employeeId);
    const found = await this.repository.change(changeId);
    if (!found || found.employeeId !== employeeId) throw new NotFoundException('Change');
    const old = toRecorded(found);
    await this.assertMayChange(caller, scope, employee, old.fields, old.salary !== null);
    const input: ChangeInput = {
      effectiveDate: dto.effective_date ?? found.effectiveDate,
      reason: dto.reason,
      fields: { ...old.fields, ...setFields(dto.fields) },
      extra: old.extra,
      salary: dto.salary ?? old.salary,
      corrects: changeId,
    };
    await this.validate(caller, scope, employee, input, dto.fields);
    const change = await withEmployeeLock(
      this.ds,
      employeeId,
      async (em) => {
        const changes = await this.repository.changesOf(em, employeeId);
        const c = changes.find((x) => x.id === changeId)!;
        CHANGE_STATES.assert('correct', c.status);
        const by = changes.find((x) => x.corrects === changeId && x.status !== 'Cancelled');
        if (by)
          throw new DomainException('INVALID_STATE', `Change ${changeId} was corrected by change ${by.id}: correct that one`, [
            { field: 'corrects', message: `corrected by ${by.id}` },
          ]);
        // What stands before the correction, the corrected change included: the department moves
        // other modules follow (the insights rollups) are from it.
        const before = segmentsAt(changes.map(toRecorded));
        // A Scheduled change that is corrected never takes effect itself.
        if (c.status === 'Scheduled') {
          const at = this.writer.nextInstant(changes);
          await CHANGE_STATES.move(em, EmploymentChange, { id: changeId, status: 'Scheduled' }, 'cancel', { cancelledAt: at });
          Object.assign(c, { status: 'Cancelled', cancelledAt: at });
        }
        return this.writer.recordIn(em, employeeId, input, caller.id, { existing: changes, before });
      },
      SET_REPLACEMENT,
    );
    return this.changeDto({ caller, scope }, change, true);
  }

  /** 403 FIELD_NOT_ALLOWED naming what the caller may not change on this employee. */
  private async assertMayChange(
    caller: AuthUser,
    scope: EmployeeScope,
    employee: Employee,
    fields: Partial<DatedValues>,
    salary: boolean,
    forbidden: string[] = [],
  ): Promise<void> {
    const salaryForbidden = salary && !(await this.access.administers(caller, employee));
    this.access.assertMayChange(
      scope,
      employeeRef(employee),
      Object.keys(fields),
      'department' in fields ? { department: fields.department ?? null } : undefined,
      [...(salaryForbidden ? ['salary'] : []), ...forbidden],
    );
  }

  /**
   * For each (employee, instant): whether the employee was in the caller's scope on that instant's
   * company day. A Restricted Admin reads an employee's past only for the days it was in its
   * departments (its history, changes, as-of rows, and the change feed's events); any other scope
   * reads what its employee scope lets it (checked before this).
   */
  async daysInScope(scope: EmployeeScope, items: ReadonlyArray<{ employee: number; at: Date }>): Promise<boolean[]> {
    if (scope.kind !== 'departments') return items.map(() => true);
    const byEmployee = await this.repository.segmentsOfMany([...new Set(items.map((i) => i.employee))]);
    const days = await this.clock.daysOf(items.map((i) => i.at));
    return items.map((item, n) => {
      const day = days[n];
      const s = byEmployee
        .get(item.employee)
        ?.find((x) => x.effectiveFrom <= day && (x.effectiveTo === null || x.effectiveTo >= day));
      return s !== undefined && s.departmentId !== null && scope.departmentIds.includes(s.departmentId);
    });
  }

  /**
   * A Restricted Admin changes only days the employee was in its departments: every day from the
   * change's effective date to today (the past it would rewrite; arrears are paid on it) must be
   * in them, as the history stands. 403 FORBIDDEN otherwise, naming the first day outside.
   */
  private async assertDaysInScope(scope: EmployeeScope, employeeId: number, from: string): Promise<void> {
    if (scope.kind !== 'departments') return;
    const to = await this.clock.today();
    if (from > to) return;
    const segments = segmentsAt((await this.repository.changesOf(null, employeeId)).map(toRecorded));
    const outside = segments.find(
      (s) => s.effectiveFrom <= to && (s.effectiveTo === null || s.effectiveTo >= from) && !inDepartments(scope, s),
    );
    if (outside) {
      const day = outside.effectiveFrom > from ? outside.effectiveFrom : from;
      throw new DomainException(
        'FORBIDDEN',
        `Employee ${employeeId} was outside your departments on ${day}: a change effective ${from} would rewrite days that are not yours to change`,
        [{ field: 'effective_date', message: `the employee was in another department on ${day}` }],
      );
    }
  }

  /**
   * The change checked: its day within the employment, references that exist, a salary payroll
   * accepts, something set; other modules' dated values (`body`'s) checked by them and added to `input.extra`.
   */
  private async validate(
    caller: AuthUser,
    scope: EmployeeScope,
    employee: Employee,
    input: ChangeInput,
    body: ChangeFieldsDto | undefined,
  ): Promise<void> {
    const dated = await this.extensions.datedCheck({ caller, scope }, employee.id, body);
    input.extra = mergeExtra(input.extra ?? {}, dated.extra);
    await this.assertMayChange(caller, scope, employee, input.fields, input.salary !== null, dated.forbidden);
    await this.assertDaysInScope(scope, employee.id, input.effectiveDate);
    const problems: ErrorDetail[] = [...dated.problems];
    const dates = effectiveDateProblem(input.effectiveDate, employee.joinedDate, employee.terminationDate);
    if (dates) problems.push(dates);
    const refs = (Object.entries(input.fields) as Array<[DatedField, number | null]>).flatMap(([name, value]) =>
      value === null ? [] : [{ name: `fields.${name}`, field: fieldOf(name), value }],
    );
    problems.push(...(await this.mapper.referenceProblems(scope, employee.id, refs)));
    if (input.salary) {
      // Payroll's check: components that exist, none twice.
      const problem = this.writer.salaryKeeper ? await this.writer.salaryKeeper.check(input.salary) : 'salaries are not kept';
      if (problem) problems.push({ field: 'salary', message: problem });
    }
    if (!Object.keys(input.fields).length && !Object.keys(input.extra).length && input.salary === null && !dated.problems.length)
      problems.push({ field: 'fields', message: 'a change sets at least one dated field or the salary' });
    if (problems.length) throw new ValidationException(problems);
    const supervisor = input.fields.supervisor;
    if (typeof supervisor === 'number' && (await this.employees.supervisorChain(supervisor)).includes(employee.id))
      throw ValidationException.field('fields.supervisor', 'would create a supervision cycle');
  }
}
