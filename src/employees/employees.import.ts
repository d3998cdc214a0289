import { Injectable, OnModuleInit } from '@nestjs/common';
import { declareImportKind } from '../common/import/import-kinds.constants';
import { CompanyClock } from '../common/time/company-clock';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { recordAudits } from '../common/audit/audit-log';
import { timeSlices } from '../common/async/time-slices';
import { withSavepoint } from '../common/database/transaction';
import { isUniqueViolation } from '../common/errors/db-errors';
import { DomainException, ErrorDetail } from '../common/errors/domain.exception';
import {
  cellValue,
  ImportColumn,
  ImportKind,
  ImportKinds,
  ImportRow,
  ImportRun,
  ImportSession,
  RowDetail,
} from '../common/import/import-kind';
import { createValidationPipe } from '../common/validation/validation-pipe';
import { ReferenceService } from '../reference/reference.service';
import { CreateEmployeeDto, UpdateEmployeeDto } from './dto/employee.dto';
import { EmployeeAccessService, EmployeeScope } from './core/employee-access.service';
import { EMPLOYEE_FIELDS } from './core/employee-fields';
import { EmployeeRefs } from './core/employee-refs';
import { EMPLOYEE_REFS, label } from './core/employee-lookup';
import { EmployeesRepository } from './core/employees.repository';
import { datesProblem, effectiveDateProblem, newEmployee, SELF_REFERENCE } from './core/employee-rules';
import { auditView } from './core/employee-views';
import { EmploymentHistoryWriter } from './history/employment-history.writer';
import { EmploymentHistoryService } from './history/employment-history.service';
import { EmployeeExtensionPoints, ExtensionWrites } from './core/employee-extension-points';
import { ExtensionColumn, ExtensionReader } from './core/employee-extensions';
import { AuthUser } from '../common/auth/auth-user';
import { DATED_FIELDS } from './history/employment-history';
import { isCalendarDate } from '../common/validation/decorators';
import { EmployeesService } from './employees.service';
import { Employee } from './entities/employee.entity';

/** Declared when this file loads (common/import/import-kinds.constants.ts). */
const EMPLOYEES_IMPORT = declareImportKind('employees');

/** One new employee whose references all exist in the demo company (test/imports.e2e-spec.ts dry-runs it there). */
const EXAMPLES: Record<string, string | number> = {
  employee_id: 'E0100',
  first_name: 'Ada',
  last_name: 'Lovelace',
  gender: 'Female',
  birthday: '1990-12-10',
  joined_date: '2024-01-15',
  nationality: 'German',
  work_email: 'ada@example.com',
  department: 'Engineering',
  job_title: 'Software Engineer',
  supervisor: 'E0001',
  status: 'Active',
};

const DATES = new Set(['birthday', 'joined_date', 'confirmation_date', 'termination_date']);

const FIELD_COLUMNS: readonly ImportColumn[] = EMPLOYEE_FIELDS.map((f) => ({
  field: f.api,
  label: label(f.api),
  type: DATES.has(f.api) ? 'date' : f.ref && !EMPLOYEE_REFS.has(f.api) && !f.byName ? 'reference' : 'text',
  example: EXAMPLES[f.api] ?? null,
  required: f.api === 'employee_id',
  note: EMPLOYEE_REFS.has(f.api)
    ? 'employee_id of an employee (in the file above or already stored)'
    : f.ref
      ? 'by name or id'
      : undefined,
}));

/** The day an existing employee's dated fields in the row apply from (a dated change); empty: today. */
const EFFECTIVE_DATE: ImportColumn = {
  field: 'effective_date',
  label: 'Effective date',
  type: 'date',
  example: null,
  note: "the day the row's job title, department, pay grade, employment status, supervisor and approvers apply from (existing employees; empty: today)",
};

export const EMPLOYEE_COLUMNS: readonly ImportColumn[] = [...FIELD_COLUMNS, EFFECTIVE_DATE];

const DATED = new Set<string>(DATED_FIELDS);

/** Other modules' properties in an import run (custom fields): their columns, and a new employee's checks without values. */
interface ImportExtensions {
  points: EmployeeExtensionPoints;
  writer: ExtensionReader;
  columns: Array<ExtensionColumn & { property: string }>;
  /** A new employee's extension write when its row has no value (a required custom field's problem): the same for every such row. */
  empty: ExtensionWrites;
}

/** A checked row: what it becomes. */
type Plan =
  | {
      row: number;
      kind: 'create';
      dto: Record<string, unknown>;
      refs: Map<string, string>;
      /** Its extension properties' checked write (custom fields), applied once the employee has an id. */
      extended?: ExtensionWrites;
    }
  | {
      row: number;
      kind: 'update';
      id: number;
      dto: Record<string, unknown>;
      refs: Map<string, string>;
      /** The day the row's dated fields apply from (a dated change); undefined: today, as PUT. */
      effectiveDate?: string;
    };

const CREATE_PIPE = createValidationPipe();
const UPDATE_PIPE = createValidationPipe();

/** The JSON API's validation of a body: the body as the pipe gives it (trimmed), or its problems. */
async function validate(
  dto: Record<string, unknown>,
  type: typeof CreateEmployeeDto | typeof UpdateEmployeeDto,
): Promise<{ value: Record<string, unknown> | null; problems: ErrorDetail[] }> {
  try {
    const value = (await (type === CreateEmployeeDto ? CREATE_PIPE : UPDATE_PIPE).transform(dto, {
      type: 'body',
      metatype: type,
    })) as object;
    return { value: { ...value }, problems: [] };
  } catch (err) {
    if (err instanceof DomainException) return { value: null, problems: err.details ?? [{ field: '', message: err.message }] };
    throw err;
  }
}

/**
 * The `employees` import kind: create or update, matched on employee_id, with the rules of POST and
 * PUT /employees (their DTOs, scope, references, uniqueness), checked a batch at a time: references
 * by name from tables read once per import, employee_ids and e-mails in one query per batch. New
 * employees go in with multi-row INSERTs and their audit entries and events likewise; updates go
 * through EmployeesService.update itself, one row each (under a savepoint).
 */
@Injectable()
export class EmployeesImport implements OnModuleInit, ImportKind {
  readonly kind = EMPLOYEES_IMPORT;
  readonly columns = EMPLOYEE_COLUMNS;
  readonly validatesWithoutWriting = true;
  readonly batchSize = 500;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly kinds: ImportKinds,
    private readonly access: EmployeeAccessService,
    private readonly reference: ReferenceService,
    private readonly refs: EmployeeRefs,
    private readonly repository: EmployeesRepository,
    private readonly employees: EmployeesService,
    private readonly history: EmploymentHistoryWriter,
    private readonly changes: EmploymentHistoryService,
    private readonly clock: CompanyClock,
    private readonly extensions: EmployeeExtensionPoints,
  ) {}

  onModuleInit(): void {
    this.kinds.register(this);
  }

  /** The employee's own columns, then one per custom field the caller may write (headed by its key). */
  async columnsFor(caller: AuthUser): Promise<readonly ImportColumn[]> {
    const columns = await this.extensions.importColumns({ caller, scope: await this.access.scopeOf(caller) });
    return [...EMPLOYEE_COLUMNS, ...columns];
  }

  async start(run: ImportRun): Promise<ImportSession> {
    const scope = await this.access.scopeOf(run.caller);
    const names = new Map<string, Map<string, number[]>>();
    for (const f of EMPLOYEE_FIELDS) {
      if (f.ref && f.ref !== 'employee') names.set(f.api, await this.refs.idsByName(f.ref));
    }
    const writer: ExtensionReader = { caller: run.caller, scope };
    const columns = await this.extensions.importColumns(writer);
    const ext: ImportExtensions = {
      points: this.extensions,
      writer,
      columns,
      empty: await this.extensions.prepare(writer, undefined, {}),
    };
    return new EmployeesImportSession(
      run,
      ext,
      scope,
      names,
      this.access,
      this.repository,
      this.employees,
      this.history,
      this.changes,
      await this.clock.today(),
    );
  }
}

class EmployeesImportSession implements ImportSession {
  /** employee_id → the file's row that has it (duplicates, and references to rows above). */
  private readonly seen = new Map<string, number>();
  /** Work e-mails of the file's rows (lower case) → row. */
  private readonly emails = new Map<string, number>();
  /** employee_ids of the file's valid rows (a row below may name one as its supervisor). */
  private readonly valid = new Set<string>();
  /** employee_id → id of the employees this import created. */
  private readonly created = new Map<string, number>();
  /** Unique custom values of the file's valid rows (ExtensionWrites.unique) → row. */
  private readonly uniques = new Map<string, number>();
  readonly columns: readonly ImportColumn[];

  constructor(
    private readonly run: ImportRun,
    private readonly ext: ImportExtensions,
    private readonly scope: EmployeeScope,
    private readonly names: Map<string, Map<string, number[]>>,
    private readonly access: EmployeeAccessService,
    private readonly repository: EmployeesRepository,
    private readonly employees: EmployeesService,
    private readonly history: EmploymentHistoryWriter,
    private readonly changes: EmploymentHistoryService,
    /** The company's day when the import began: a Terminated row without a date left on it. */
    private readonly today: string,
  ) {
    this.columns = [...EMPLOYEE_COLUMNS, ...ext.columns];
  }

  remember(rows: ImportRow[]): void {
    for (const r of rows) {
      const id = cellValue(r.values.get('employee_id'), 'text');
      if (typeof id === 'string' && !this.seen.has(id)) this.seen.set(id, r.row);
    }
  }

  async batch(em: EntityManager, rows: ImportRow[], apply: boolean): Promise<RowDetail[]> {
    const problems: RowDetail[] = [];
    const raw = rows.map((r) => ({ row: r.row, dto: this.bodyOf(r, problems) }));
    // Who exists: the rows' own employee_ids and those they point to, in one query.
    const wanted = new Set<string>();
    for (const { dto, refs } of raw.map((r) => r.dto)) {
      if (typeof dto.employee_id === 'string') wanted.add(dto.employee_id);
      for (const v of refs.values()) wanted.add(v);
    }
    const stored = new Map((await this.repository.byEmployeeIds(em, [...wanted])).map((e) => [e.employeeId, e]));
    const emails = raw.map((r) => r.dto.dto.work_email).filter((e): e is string => typeof e === 'string');
    const emailOwners = await this.repository.workEmailOwners(em, emails);

    const extended = await this.extensionWrites(
      raw.map((r) => r.dto.dto),
      stored,
    );
    const plans: Plan[] = [];
    // A row's checks are microtasks (the DTO validation, the lookups in memory): without a pause a
    // batch of 500 held the event loop for 600 ms (a hostile file of 20 000 rows, issue 41).
    const slices = timeSlices();
    for (const [i, { row, dto: body }] of raw.entries()) {
      if (slices.due()) await slices.pause();
      const own = problems.filter((p) => p.row === row);
      const plan = await this.check(row, body.dto, body.refs, stored, emailOwners, own, extended[i]);
      if (plan) this.checkEffectiveDate(plan, rows[i], stored, own);
      problems.push(...own.filter((p) => !problems.includes(p)));
      const employeeId = body.dto.employee_id;
      if (typeof employeeId === 'string' && !this.seen.has(employeeId)) this.seen.set(employeeId, row);
      if (plan && !problems.some((p) => p.row === row)) {
        plans.push(plan);
        if (typeof employeeId === 'string') this.valid.add(employeeId);
      }
    }
    if (apply) await this.write(em, plans, stored, problems);
    return problems;
  }

  /**
   * The row's effective date, checked as POST /employees/{id}/changes checks it, set on an
   * update's plan; a new employee's history starts at its joined date, so there it may only be that day.
   */
  private checkEffectiveDate(plan: Plan, r: ImportRow, stored: Map<string, Employee>, problems: RowDetail[]): void {
    const day = cellValue(r.values.get(EFFECTIVE_DATE.field), 'date');
    if (day === undefined) return;
    const add = (message: string) => void problems.push({ row: plan.row, field: EFFECTIVE_DATE.field, message });
    if (!isCalendarDate(day)) return add('must be a date (YYYY-MM-DD)');
    if (plan.kind === 'create') {
      if (day !== plan.dto.joined_date)
        add('must be empty or the joined_date for a new employee (its history starts on the day it joined)');
      return;
    }
    const existing = stored.get(String(plan.dto.employee_id))!;
    const joined = (plan.dto.joined_date as string | undefined) ?? existing.joinedDate;
    const terminated =
      plan.dto.termination_date === undefined ? existing.terminationDate : (plan.dto.termination_date as string | null);
    const problem = effectiveDateProblem(day, joined, terminated);
    if (problem) add(problem.message);
    else plan.effectiveDate = day;
  }

  /** The row as a JSON body: cells read as their fields' types, references by name turned into ids. */
  private bodyOf(r: ImportRow, problems: RowDetail[]): { dto: Record<string, unknown>; refs: Map<string, string> } {
    const dto: Record<string, unknown> = {};
    const refs = new Map<string, string>();
    for (const column of FIELD_COLUMNS) {
      const value = cellValue(r.values.get(column.field), column.type);
      if (value === undefined) continue;
      if (EMPLOYEE_REFS.has(column.field)) {
        refs.set(column.field, String(value));
        continue;
      }
      const byName = this.names.get(column.field);
      if (byName && column.field === 'nationality') {
        const ids = byName.get(String(value).toLowerCase());
        if (ids?.length) dto[column.field] = String(value);
        else problems.push({ row: r.row, field: column.field, message: 'must be the name of a nationality from /nationalities' });
        continue;
      }
      if (byName && typeof value === 'string' && !/^\d+$/.test(value)) {
        const ids = byName.get(value.toLowerCase()) ?? [];
        if (ids.length === 1) dto[column.field] = ids[0];
        else if (ids.length > 1)
          problems.push({ row: r.row, field: column.field, message: `${ids.length} are named "${value}": give the id` });
        else problems.push({ row: r.row, field: column.field, message: `no ${column.label.toLowerCase()} is named "${value}"` });
        continue;
      }
      dto[column.field] = byName && typeof value === 'string' ? Number(value) : value;
    }
    // Custom fields' columns: the property's object of the row's values (an empty cell leaves a value as it is).
    for (const column of this.ext.columns) {
      const value = cellValue(r.values.get(column.field), column.type);
      if (value === undefined) continue;
      const own = (dto[column.property] ??= {}) as Record<string, unknown>;
      own[column.key] = column.read(String(value));
    }
    return { dto, refs };
  }

  /**
   * The row's problems, as POST or PUT /employees would answer them, pushed to `problems`; the
   * plan when it is valid so far.
   */
  private async check(
    row: number,
    dto: Record<string, unknown>,
    refs: Map<string, string>,
    stored: Map<string, Employee>,
    emailOwners: Map<string, string>,
    problems: RowDetail[],
    write: ExtensionWrites | undefined,
  ): Promise<Plan | null> {
    const add = (field: string, message: string) => problems.push({ row, field, message });
    const employeeId = typeof dto.employee_id === 'string' ? dto.employee_id.trim() : undefined;
    if (employeeId === undefined) {
      add('employee_id', 'must not be empty');
      return null;
    }
    const first = this.seen.get(employeeId);
    if (first !== undefined) {
      add('employee_id', `appears twice in the file (first at row ${first})`);
      return null;
    }
    const existing = stored.get(employeeId) ?? null;
    // What PUT /employees/{id} (404) and POST /employees (Admins only) would answer: nothing else to check.
    const refusal = !existing
      ? this.scope.kind === 'all'
        ? null
        : 'new employees are created by an Admin only'
      : this.access.canSee(this.scope, existing)
        ? null
        : 'Employee not found';
    if (refusal) {
      add('employee_id', refusal);
      return null;
    }

    // Employee references: an employee in scope, or a row above in the file.
    const ids: Record<string, number> = {};
    for (const [field, ref] of refs) {
      const target = stored.get(ref);
      if (ref === employeeId) add(field, SELF_REFERENCE);
      else if (target && this.access.canSee(this.scope, target)) ids[field] = target.id;
      else if (this.valid.has(ref))
        ids[field] = this.created.get(ref) ?? 1; // created above: its id comes when it is written
      else if (this.seen.has(ref)) add(field, `is the employee_id of row ${this.seen.get(ref)}, which is not valid`);
      else add(field, 'employee does not exist');
    }
    const checked = await validate({ ...dto, ...ids }, existing ? UpdateEmployeeDto : CreateEmployeeDto);
    for (const d of checked.problems) add(d.field, d.message);
    const body = checked.value ?? dto;
    const extended = this.extensionsOf(row, existing, write, problems);

    const email = typeof dto.work_email === 'string' ? dto.work_email.toLowerCase() : null;
    if (email) {
      const owner = emailOwners.get(email);
      const inFile = this.emails.get(email);
      if (owner !== undefined && owner !== employeeId) add('work_email', 'already used');
      else if (inFile !== undefined) add('work_email', `appears twice in the file (first at row ${inFile})`);
      else this.emails.set(email, row);
    }
    if (
      existing &&
      this.scope.kind === 'departments' &&
      typeof dto.department === 'number' &&
      dto.department !== existing.departmentId
    ) {
      if (!this.scope.departmentIds.includes(dto.department)) add('department', 'may not be changed by you');
    }
    const dates = datesProblem(
      (dto.joined_date as string | undefined) ?? existing?.joinedDate,
      (dto.termination_date as string | undefined) ?? existing?.terminationDate,
    );
    if (dates) add(dates.field, dates.message);
    return existing
      ? { row, kind: 'update', id: existing.id, dto: body, refs }
      : { row, kind: 'create', dto: body, refs, extended };
  }

  /**
   * The rows' custom field values checked as POST or PUT would check them, all of the batch's at
   * once (the definitions, stored values and unique values read once): a row's write, or undefined
   * for an update that names none. A new employee without any shares the run's one check of
   * required fields.
   */
  private async extensionWrites(
    bodies: ReadonlyArray<Record<string, unknown>>,
    stored: Map<string, Employee>,
  ): Promise<Array<ExtensionWrites | undefined>> {
    const items = bodies.map((body) => {
      const existing = typeof body.employee_id === 'string' ? stored.get(body.employee_id.trim()) : undefined;
      const carries = this.ext.columns.some((c) => body[c.property] !== undefined);
      return { employeeId: existing?.id, body, carries, existing };
    });
    const carrying = items.filter((i) => i.carries);
    const writes = new Map(
      (await this.ext.points.prepareMany(this.ext.writer, carrying)).map((w, n) => [carrying[n], w] as const),
    );
    return items.map((i) => writes.get(i) ?? (i.existing ? undefined : this.ext.empty));
  }

  /**
   * A row's checked custom field values (extensionWrites), their problems named by the column; a
   * unique value a row above holds is refused here (the database would refuse the second).
   */
  private extensionsOf(
    row: number,
    existing: Employee | null,
    write: ExtensionWrites | undefined,
    problems: RowDetail[],
  ): ExtensionWrites | undefined {
    const columns = (property: string) => this.ext.columns.filter((c) => c.property === property);
    if (!write || (existing && write === this.ext.empty)) return undefined;
    // `custom_fields.badge` is the file's column `badge`.
    const column = (name: string) => {
      const [property, key] = name.split('.', 2);
      return key !== undefined && columns(property).some((c) => c.key === key) ? key : name;
    };
    for (const d of write.problems) problems.push({ row, field: column(d.field), message: d.message });
    for (const name of write.forbidden) problems.push({ row, field: column(name), message: 'may not be changed by you' });
    for (const u of write.unique) {
      const first = this.uniques.get(u);
      if (first !== undefined)
        problems.push({ row, field: column(u.split(':')[0]), message: `appears twice in the file (first at row ${first})` });
    }
    if (!problems.some((p) => p.row === row)) for (const u of write.unique) this.uniques.set(u, row);
    return write;
  }

  /** Writes the valid rows: creates in multi-row INSERTs (rows pointing to a row of the same insert wait for it), updates one by one. */
  private async write(em: EntityManager, plans: Plan[], stored: Map<string, Employee>, problems: RowDetail[]): Promise<void> {
    const idOf = (ref: string) => this.created.get(ref) ?? stored.get(ref)?.id;
    let pending = plans.filter((p) => p.kind === 'create');
    const lost = new Set<string>(); // employee_ids of rows another writer took meanwhile
    while (pending.length) {
      const ready = pending.filter((p) => [...p.refs.values()].every((ref) => idOf(ref) !== undefined));
      if (!ready.length) {
        // What is left refers to a row that was not written: each is that row's problem, not a crash.
        const orphans = pending.filter((p) => [...p.refs.values()].some((ref) => lost.has(ref)));
        if (!orphans.length) throw new Error('employee import: a reference to a row that is not written');
        for (const p of orphans) {
          const [field, ref] = [...p.refs].find(([, r]) => lost.has(r))!;
          problems.push({ row: p.row, field, message: `refers to employee_id ${ref}, whose row was not written` });
          lost.add(String(p.dto.employee_id));
        }
        pending = pending.filter((p) => !orphans.includes(p));
        continue;
      }
      pending = pending.filter((p) => !ready.includes(p));
      const entities = ready.map((p) => this.entityOf(p, idOf));
      const ids = await this.insertOrReport(em, ready, entities, problems, lost);
      for (const [employeeId, id] of ids) this.created.set(employeeId, id);
      const written = entities
        .map((e, i) => ({ plan: ready[i], employee: { ...e, id: ids.get(e.employeeId!) } as Employee }))
        .filter((w) => w.employee.id !== undefined);
      // Custom field values: written once the employee has an id, dated ones in its first change.
      const extended = written.flatMap(({ plan, employee }) =>
        plan.kind === 'create' && plan.extended?.changed.length ? [{ writes: plan.extended, employeeId: employee.id }] : [],
      );
      const applied = await this.ext.points.applyMany(em, extended);
      const properties = new Map(extended.map((e, n) => [e.employeeId, applied[n].after]));
      const dated = new Map(
        written.map(({ plan, employee }) => [employee.id, (plan.kind === 'create' && plan.extended?.dated) || {}]),
      );
      await this.history.startHistories(
        em,
        written.map((w) => w.employee),
        this.run.caller.id,
        dated,
      );
      await recordAudits(
        em,
        written.map(({ employee }) => ({
          action: 'create',
          resource: 'employees',
          event: 'employee.created',
          resourceId: employee.id,
          employee: employee.id,
          after: { ...auditView(employee), ...properties.get(employee.id) },
        })),
      );
    }
    for (const plan of plans) {
      if (plan.kind !== 'update') continue;
      const dto: Record<string, unknown> = { ...plan.dto };
      for (const [field, ref] of plan.refs) dto[field] = idOf(ref);
      // With an effective date the dated fields are a change from that day; the others are updated now.
      const day = plan.effectiveDate;
      const fields: Record<string, unknown> = Object.fromEntries(
        Object.entries(dto).filter(([k]) => day !== undefined && DATED.has(k)),
      );
      for (const k of Object.keys(fields)) delete dto[k];
      // A dated custom field's value, with an effective date, is a change of that day too.
      for (const c of day === undefined ? [] : this.ext.columns.filter((x) => x.dated)) {
        const own = dto[c.property] as Record<string, unknown> | undefined;
        if (own?.[c.key] === undefined) continue;
        ((fields[c.property] ??= {}) as Record<string, unknown>)[c.key] = own[c.key];
        delete own[c.key];
      }
      try {
        await withSavepoint(em, async () => {
          await this.employees.update(this.run.caller, plan.id, dto);
          if (day !== undefined && Object.keys(fields).length)
            await this.changes.record(this.run.caller, plan.id, { effective_date: day, fields: fields });
        });
      } catch (err) {
        if (!(err instanceof DomainException)) throw err;
        for (const d of err.details?.length ? err.details : [{ field: '', message: err.message }])
          problems.push({ row: plan.row, ...d });
      }
    }
  }

  /**
   * The rows inserted in one statement; when another import or request created one of their
   * employee_ids or e-mails after this batch was checked (a unique key violation, issue 41), the
   * rows go one by one and each that conflicts is its row's problem, not an internal error.
   */
  private async insertOrReport(
    em: EntityManager,
    ready: Plan[],
    entities: Partial<Employee>[],
    problems: RowDetail[],
    lost: Set<string>,
  ): Promise<Map<string, number>> {
    try {
      return await withSavepoint(em, () => this.repository.insertMany(em, entities));
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
    const ids = new Map<string, number>();
    for (const [i, entity] of entities.entries()) {
      try {
        for (const [k, v] of await withSavepoint(em, () => this.repository.insertMany(em, [entity]))) ids.set(k, v);
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        lost.add(entity.employeeId!);
        problems.push({
          row: ready[i].row,
          field: 'employee_id',
          message:
            'was taken meanwhile (its employee_id or e-mail was created by another import or request): import the row again',
        });
      }
    }
    return ids;
  }

  private entityOf(plan: Plan, idOf: (ref: string) => number | undefined): Partial<Employee> {
    const e: Record<string, unknown> = {};
    for (const f of EMPLOYEE_FIELDS) {
      const value = plan.refs.has(f.api) ? idOf(plan.refs.get(f.api)!) : plan.dto[f.api];
      if (value === undefined) continue;
      e[f.prop] = f.byName ? (typeof value === 'string' ? this.nationalityId(value) : null) : value;
    }
    return newEmployee(e, this.today);
  }

  private nationalityId(name: string): number | null {
    return this.names.get('nationality')?.get(name.toLowerCase())?.[0] ?? null;
  }
}
