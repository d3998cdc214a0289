import { Inject, Injectable } from '@nestjs/common';
import { CompanyClock } from '../common/time/company-clock';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { AuthUser } from '../common/auth/auth-user';
import { isUniqueViolation } from '../common/errors/db-errors';
import { DomainException, NotFoundException, ValidationException } from '../common/errors/domain.exception';
import { parseListQuery } from '../common/paging/list-request';
import { Page } from '../common/paging/page';
import { TotalsCache } from '../common/paging/totals-cache';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import {
  CreateEmployeeDto,
  CurrentEmployeeDto,
  EmployeeDto,
  EmployeeListItemDto,
  EmployeeListQueryDto,
  UpdateEmployeeDto,
} from './dto/employee.dto';
import { EmployeeAccessService, employeeRef, EmployeeScope } from './core/employee-access.service';
import { EMPLOYEE_FIELDS } from './core/employee-fields';
import { Employee } from './entities/employee.entity';
import { assertEmployeeVersion, assertUniqueIds } from './core/employee-version';
import { transaction } from '../common/database/transaction';
import { withEmployeeLock } from './core/employee-lock';
import { EMPLOYEE_LIST_AS_OF_SPEC, EMPLOYEE_LIST_SPEC, EmployeesRepository } from './core/employees.repository';
import { EmploymentHistoryJobs } from './history/employment-history.jobs';
import { datesProblem, deferTermination, newEmployee, settleTermination } from './core/employee-rules';
import {
  auditView,
  DepartmentChangeHook,
  EmployeeRemovalHook,
  TerminationHook,
  toCurrentEmployee,
  toListItem,
} from './core/employee-views';
import { EmployeeHooks } from './core/employee-hooks';
import { EmployeeMapper, Patch } from './core/employee-mapper';
import { EmploymentHistoryWriter } from './history/employment-history.writer';
import { datedPatch, employeeAsOf, maxDay } from './history/as-of';
import { recordAudit } from '../common/audit/audit-log';
import { EmployeeExtension, ExtensionReader } from './core/employee-extensions';
import { EmployeeExtensionPoints, ExtensionWrites } from './core/employee-extension-points';

export { EMPLOYEE_LIST_SPEC };

@Injectable()
export class EmployeesService {
  private readonly employees: Repository<Employee>;

  /** The list's totals, reused for LIST_TOTALS_CACHE_MS; cleared by this process's own writes. */
  private readonly totals: TotalsCache;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly access: EmployeeAccessService,
    private readonly repository: EmployeesRepository,
    private readonly hooks: EmployeeHooks,
    private readonly mapper: EmployeeMapper,
    private readonly history: EmploymentHistoryWriter,
    private readonly clock: CompanyClock,
    private readonly extensions: EmployeeExtensionPoints,
    private readonly terminations: EmploymentHistoryJobs,
  ) {
    this.employees = dataSource.getRepository(Employee);
    this.totals = new TotalsCache(config.listTotalsCacheMs);
  }

  /** Admin: all; Restricted Admin: its department subtree; Manager: its direct reports; Employee: none. */
  async list(caller: AuthUser, query: EmployeeListQueryDto): Promise<Page<EmployeeListItemDto>> {
    const scope = await this.access.scopeOf(caller);
    const since = query.updated_since === undefined ? undefined : new Date(query.updated_since);
    // Other modules' filters and sort (custom fields) come out of the query first.
    const list = await this.extensions.list(
      caller,
      scope,
      query,
      query.as_of === undefined ? EMPLOYEE_LIST_SPEC : EMPLOYEE_LIST_AS_OF_SPEC,
    );
    const request = parseListQuery(list.query, list.spec);
    const page =
      query.as_of === undefined
        ? await this.repository.listPage(scope, request, this.totals, since, list)
        : await this.repository.listPageAsOf(scope, request, query.as_of, this.totals, since, list);
    const items = page.map(toListItem);
    await this.extensions.addListed({ caller, scope }, items.items, query.as_of);
    return items;
  }

  async me(caller: AuthUser): Promise<CurrentEmployeeDto> {
    const e = caller.employeeId === null ? null : await this.access.employee(caller.employeeId);
    if (!e) throw new DomainException('NOT_FOUND', 'No employee record is linked to your user');
    return toCurrentEmployee(e);
  }

  /** One employee; with `asOf`, its dated fields and status as they were (or will be) on that day, from the history. */
  async get(caller: AuthUser, id: number, asOf?: string): Promise<EmployeeDto> {
    if (asOf === undefined) return this.mapper.visibleDto(caller, id);
    // The two reads at once (two round trips in parallel on MariaDB); the segment is dropped unless the caller sees the employee.
    const [{ employee, scope }, found] = await Promise.all([this.access.visible(caller, id), this.history.segmentOn(id, asOf)]);
    const segment = asOf >= employee.joinedDate ? found : null;
    if (!segment) throw new DomainException('NOT_FOUND', `Employee ${id} had not joined by ${asOf}`);
    // A Restricted Admin reads the days the employee was in its departments only.
    const department = segment.departmentId;
    if (scope.kind === 'departments' && (department === null || !scope.departmentIds.includes(department))) {
      throw new DomainException('NOT_FOUND', `Employee ${id} was not in your departments on ${asOf}`);
    }
    return this.mapper.toDto(employeeAsOf(employee, segment, asOf), { caller, scope }, undefined, segment);
  }

  async create(dto: CreateEmployeeDto, caller?: AuthUser): Promise<EmployeeDto> {
    const patch = await this.mapper.toPatch(dto);
    const employee = this.employees.create(newEmployee(patch as Partial<Employee>, await this.clock.today()));
    const writer: ExtensionReader = caller ? { caller, scope: await this.access.scopeOf(caller) } : null;
    const extended = await this.extensions.prepare(writer, undefined, dto);
    await this.check(employee, patch, undefined, extended);
    const saved = await this.write(employee, extended, () =>
      transaction(this.dataSource, async (em) => {
        const created = await em.getRepository(Employee).save(employee);
        await this.history.startHistories(em, [created], caller?.id ?? null, new Map([[created.id, extended.dated]]));
        const { after } = await extended.apply(em, created.id);
        await recordAudit(em, {
          action: 'create',
          resource: 'employees',
          event: 'employee.created',
          resourceId: created.id,
          employee: created.id,
          after: { ...auditView(created), ...after },
        });
        return created;
      }),
    );
    return this.mapper.toDto(saved, writer);
  }

  async update(caller: AuthUser, id: number, dto: UpdateEmployeeDto, ifMatch?: string): Promise<EmployeeDto> {
    const { employee, scope } = await this.access.visible(caller, id);
    const { id: _ignored, ...fields } = dto;
    const patch = await this.mapper.toPatch(fields);
    const changed = EMPLOYEE_FIELDS.filter((f) => f.prop in patch && patch[f.prop] !== employee[f.prop]);
    const moved = 'departmentId' in patch && patch.departmentId !== employee.departmentId;
    const extended = await this.extensions.prepare({ caller, scope }, id, fields);
    this.access.assertMayChange(
      scope,
      employeeRef(employee),
      changed.map((f) => f.api),
      moved ? { department: patch.departmentId as number | null } : undefined,
      extended.forbidden,
    );
    const changedPatch = Object.fromEntries(changed.map((f) => [f.prop, patch[f.prop]])) as Patch;
    const original = { ...employee };
    const before = auditView(employee);
    Object.assign(employee, changedPatch);
    await this.check(employee, changedPatch, scope, extended);
    const terminates = deferTermination(original, employee);
    // Only what this request changes is written (a concurrent change of another field stays).
    const written = Object.fromEntries(
      EMPLOYEE_FIELDS.filter((f) => employee[f.prop] !== original[f.prop]).map((f) => [f.prop, employee[f.prop]]),
    );
    // A change of a dated field is a change effective today in the employment history (issue 43),
    // recorded under the employee lock, as is a department change with its hooks; any other change
    // is a plain transaction. Before the employee joined, it counts from the joined date.
    const dated = datedPatch(changedPatch) ?? (Object.keys(extended.dated).length ? {} : null);
    const effectiveDate = dated && maxDay(await this.clock.today(), employee.joinedDate);
    const change =
      dated && effectiveDate ? { effectiveDate, reason: null, fields: dated, extra: extended.dated, salary: null } : null;
    // The history's rewrite runs the department hooks for the days whose department moved.
    const locked = dated !== null || !!ifMatch;
    const work = async (em: EntityManager) => {
      await this.assertVersion(em, id, ifMatch, { caller, scope });
      // A change of an extension's property alone moves updated_at too (updated_since finds it).
      if (Object.keys(written).length || extended.changed.length) await em.update(Employee, { id }, written);
      const properties = await extended.apply(em, id);
      const after = await em.findOne(Employee, { where: { id } });
      if (!after) throw new NotFoundException('Employee');
      if (change) await this.history.recordIn(em, id, change, caller.id, { applied: 'fields' });
      await recordAudit(em, {
        action: 'update',
        resource: 'employees',
        event: 'employee.updated',
        resourceId: id,
        employee: id,
        before: { ...before, ...properties.before },
        after: { ...auditView(after), ...properties.after },
      });
      return after;
    };
    let saved = await this.write(employee, extended, () =>
      locked ? withEmployeeLock(this.dataSource, id, work) : transaction(this.dataSource, work),
    );
    if (terminates) saved = (await this.terminations.terminateNow(id), await this.employees.findOneByOrFail({ id }));
    return this.mapper.toDto(saved, { caller, scope });
  }

  /** Registers what another module does when days of an employee change department (the insights rollups move their records). */
  onDepartmentChange(hook: DepartmentChangeHook): void {
    this.hooks.department.push(hook);
  }

  /** Registers what another module does when an employee's termination takes effect (the Users module deactivates its user). */
  onTermination(hook: TerminationHook): void {
    this.hooks.termination.push(hook);
  }

  /** Registers a property another module adds to employees (custom fields: EmployeeExtension). */
  extend(extension: EmployeeExtension): void {
    this.hooks.extensions.push(extension);
  }

  /** Registers what another module does when an employee is deleted (the Users module deactivates its user). */
  onRemove(hook: EmployeeRemovalHook): void {
    this.hooks.removal.push(hook);
  }

  /**
   * Removes the employee and its sub-records in one transaction, with the removal hooks' writes
   * (they may refuse it); reports and approvals pointing to it are cleared (foreign keys SET NULL).
   */
  async remove(id: number, ifMatch?: string): Promise<{ id: number }> {
    const afterCommit = await withEmployeeLock(this.dataSource, id, async (em) => {
      const existing = await this.assertVersion(em, id, ifMatch, null);
      await recordAudit(em, {
        action: 'delete',
        resource: 'employees',
        event: 'employee.deleted',
        resourceId: id,
        employee: id,
        before: { ...auditView(existing), ...(await this.extensions.propertiesOf(em, null, id)) },
      });
      const later: Array<() => Promise<void>> = [];
      for (const hook of this.hooks.removal) {
        const after = await hook(em, id);
        if (after) later.push(after);
      }
      await em.delete(Employee, { id });
      return later;
    });
    this.totals.clear();
    for (const after of afterCommit) await after();
    return { id };
  }

  private assertVersion(em: EntityManager, id: number, ifMatch: string | undefined, reader: ExtensionReader): Promise<Employee> {
    return assertEmployeeVersion(em, this.mapper, id, ifMatch, reader);
  }

  /**
   * References exist, no self or circular supervision, unique ids and e-mails, termination rules.
   * A reference to an employee outside the caller's scope answers exactly like a missing one.
   */
  private async check(
    e: Employee,
    patch: Patch,
    scope: EmployeeScope = { kind: 'all' },
    extended?: ExtensionWrites,
  ): Promise<void> {
    const refs = EMPLOYEE_FIELDS.flatMap((f) => {
      const value = patch[f.prop];
      return !f.ref || f.byName || value === null || value === undefined
        ? []
        : [{ name: f.api, field: f, value: value as number }];
    });
    const problems = await this.mapper.referenceProblems(scope, e.id, refs);
    settleTermination(e, await this.clock.today());
    const dates = datesProblem(e.joinedDate, e.terminationDate);
    if (dates) problems.push(dates);
    problems.push(...(extended?.problems ?? []));
    if (problems.length) throw new ValidationException(problems);

    if (
      e.id !== undefined &&
      typeof patch.supervisorId === 'number' &&
      (await this.repository.supervisorChain(patch.supervisorId)).includes(e.id)
    ) {
      throw ValidationException.field('supervisor', 'would create a supervision cycle');
    }
    await assertUniqueIds(this.employees, e);
  }

  /**
   * Runs a write of `e` (its transaction, with the audit record): the cached list totals are
   * dropped, and a unique violation (a concurrent write took the employee_id or e-mail between
   * the check and the save) becomes 409 DUPLICATE, checked after the transaction rolled back.
   */
  private async write<T>(e: Employee, extended: ExtensionWrites, run: () => Promise<T>): Promise<T> {
    this.totals.clear();
    try {
      return await run();
    } catch (err) {
      if (isUniqueViolation(err)) {
        await assertUniqueIds(this.employees, e);
        await extended.explainConflict(e.id);
      }
      throw err;
    }
  }
}
