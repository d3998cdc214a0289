import { Injectable } from '@nestjs/common';
import { CompanyClock } from '../../common/time/company-clock';
import { EntityManager } from 'typeorm';
import { recordAudit } from '../../common/audit/audit-log';
import { recordEvent } from '../../common/outbox/outbox';
import { StateMachine } from '../../common/state/state-machine';
import { addDays } from '../../common/time/days';
import { EMPLOYEE_FIELDS } from '../core/employee-fields';
import { EmployeeHooks } from '../core/employee-hooks';
import { auditView } from '../core/employee-views';
import { DomainException, NotFoundException } from '../../common/errors/domain.exception';
import { Employee } from '../entities/employee.entity';
import { ChangeStatus, EmploymentChange, EmploymentSegment } from '../entities/employment-history.entities';
import { EmploymentHistoryRepository } from './employment-history.repository';
import {
  DATED_FIELDS,
  departmentMoves,
  DatedField,
  DatedValues,
  ExtraValues,
  RecordedChange,
  SalaryLine,
  Segment,
  segmentOn,
  segmentsAt,
} from './employment-history';

/** Scheduled (future) changes one employee may have at once (Hardening IV item 24: each write recomputes them all). */
export const MAX_SCHEDULED = 100;
/** The states of a recorded change (issue 43): Scheduled until its day, Effective from it; only a Scheduled one is cancelled. */
export const CHANGE_STATES = new StateMachine<ChangeStatus, 'cancel' | 'take_effect' | 'correct'>('change', {
  cancel: { from: ['Scheduled'], to: 'Cancelled', verb: 'be cancelled' },
  take_effect: { from: ['Scheduled'], to: 'Effective', verb: 'take effect' },
  correct: { from: ['Scheduled', 'Effective'], to: null, verb: 'be corrected' },
});

/** The audit log's resource of recorded changes. */
export const CHANGES = 'employees/changes';

/** Each dated field's definition (its entity property, what it points to), by API name. */
const PROP = new Map(EMPLOYEE_FIELDS.map((f) => [f.api, f]));
export const fieldOf = (field: DatedField) => PROP.get(field)!;
const propOf = (field: DatedField) => fieldOf(field).prop as keyof Employee & keyof EmploymentSegment;

/** What payroll does with salaries (it owns the components and today's amounts): registered at start. */
export interface SalaryKeeper {
  /** The problem with these lines (a component that does not exist), or null. */
  check(lines: SalaryLine[]): Promise<string | null>;
  /** Makes `lines` the employee's salary of today, with `em` (audited as a salary change). */
  apply(em: EntityManager, employeeId: number, lines: SalaryLine[]): Promise<void>;
}

/** A change to record: validated, with the day it takes effect. */
export interface ChangeInput {
  effectiveDate: string;
  reason: string | null;
  fields: Partial<DatedValues>;
  /** Other modules' dated values (EmployeeExtension.dated), checked by them. */
  extra?: ExtraValues;
  salary: SalaryLine[] | null;
  corrects?: number | null;
}

/** A change's stored fields: the dated fields, and other modules' properties (objects) beside them. */
export function storedFields(json: string): { fields: Partial<DatedValues>; extra: ExtraValues } {
  const fields: Partial<DatedValues> = {};
  const extra: ExtraValues = {};
  for (const [name, value] of Object.entries(JSON.parse(json) as Record<string, unknown>)) {
    if ((DATED_FIELDS as readonly string[]).includes(name)) fields[name as DatedField] = value as number | null;
    else if (value !== null && typeof value === 'object') extra[name] = value as Record<string, unknown>;
  }
  return { fields, extra };
}

/** Segments' and changes' extra values as text: keys sorted, so that equal values compare equal; null for none. */
export function extraText(extra: ExtraValues): string | null {
  const properties = Object.keys(extra).sort();
  if (!properties.length) return null;
  return JSON.stringify(Object.fromEntries(properties.map((p) => [p, Object.fromEntries(Object.entries(extra[p]).sort())])));
}

export function toRecorded(c: EmploymentChange): RecordedChange {
  return {
    id: c.id,
    effectiveDate: c.effectiveDate,
    recordedAt: c.recordedAt,
    ...storedFields(c.fields),
    salary: c.salary === null ? null : (JSON.parse(c.salary) as SalaryLine[]),
    cancelledAt: c.cancelledAt,
    corrects: c.corrects,
  };
}

function toSegmentRow(employeeId: number, s: Segment): EmploymentSegment {
  const row = {
    employeeId,
    effectiveFrom: s.effectiveFrom,
    effectiveTo: s.effectiveTo,
    salary: JSON.stringify(s.salary),
    changeId: s.change,
    extra: extraText(s.extra),
  };
  for (const f of DATED_FIELDS) (row as Record<string, unknown>)[propOf(f)] = s.values[f];
  return row as EmploymentSegment;
}

const SEGMENT_KEYS = ['effectiveFrom', 'effectiveTo', 'salary', 'changeId', 'extra', ...DATED_FIELDS.map(propOf)] as const;
/** A segment row's column as text (stored ids may come back as text or numbers), null when empty. */
const columnText = (row: EmploymentSegment, key: (typeof SEGMENT_KEYS)[number]) => {
  const v = (row as unknown as Record<string, string | number | null | undefined>)[key];
  return v === null || v === undefined ? null : String(v);
};
/** Two segment rows of an employee alike in every column (a stored one's values as the driver reads them). */
const sameRow = (a: EmploymentSegment, b: EmploymentSegment) => SEGMENT_KEYS.every((k) => columnText(a, k) === columnText(b, k));

/** A stored segment's dated values as the employee's properties (the two share the column names). */
export function datedProps(s: EmploymentSegment): Partial<Employee> {
  return Object.fromEntries(DATED_FIELDS.map((f) => [propOf(f), s[propOf(f)]]));
}

/** Salary lines as the history stores and compares them: component and amount only, by component. */
function normalLines(lines: readonly SalaryLine[]): SalaryLine[] {
  return lines.map((l) => ({ component: l.component, amount: l.amount })).sort((a, b) => a.component - b.component);
}

const sameSalary = (a: SalaryLine[] | undefined, b: SalaryLine[] | undefined) =>
  JSON.stringify(a ?? []) === JSON.stringify(b ?? []);

/**
 * The writes of employment history (issue 43, docs/api/decisions.md §19) that every path shares (a recorded change,
 * PUT /employees, PUT salary, a new employee, the daily job): each runs with the caller's `em`,
 * under the employee's row lock (withEmployeeLock). The employee's changes are read, the new one
 * inserted with a recording instant after all of them, its segments rewritten and today's values
 * applied to the employee row and the salary.
 */
@Injectable()
export class EmploymentHistoryWriter {
  /** Set by payroll at start (keepSalaries). */
  salaryKeeper: SalaryKeeper | null = null;

  constructor(
    private readonly repository: EmploymentHistoryRepository,
    private readonly clock: CompanyClock,
    private readonly hooks: EmployeeHooks,
  ) {}

  /** Payroll registers how salaries are checked and applied. */
  keepSalaries(keeper: SalaryKeeper): void {
    this.salaryKeeper = keeper;
  }

  /**
   * The employee's changes with `em` (under its lock), and whether any that stands sets a salary
   * with at least one component: PUT salary dates an employee's first salary from its joined date.
   */
  async salaryHistory(em: EntityManager, employeeId: number): Promise<{ changes: EmploymentChange[]; hasSalary: boolean }> {
    const changes = await this.repository.changesOf(em, employeeId);
    const hasSalary = changes.some((c) => c.status !== 'Cancelled' && c.salary !== null && c.salary !== '[]');
    return { changes, hasSalary };
  }

  /** The segment in force on `day` (null before the employee joined). */
  segmentOn(employeeId: number, day: string): Promise<EmploymentSegment | null> {
    return this.repository.segmentOn(employeeId, day);
  }

  /**
   * Records a change with `em` (under the employee's lock: the caller's transaction), rewrites
   * the segments and applies today's values to the employee row and the salary. `applied`: the
   * caller has written today's values itself (PUT /employees, PUT salary).
   */
  async recordIn(
    em: EntityManager,
    employeeId: number,
    input: ChangeInput,
    actor: number | null,
    opts: { applied?: 'fields' | 'salary'; existing?: EmploymentChange[]; before?: Segment[] } = {},
  ): Promise<EmploymentChange> {
    const today = await this.clock.today();
    const existing = opts.existing ?? (await this.repository.changesOf(em, employeeId));
    // Every write of an employee recomputes its history: a bounded number waiting keeps it cheap.
    if (input.effectiveDate > today && existing.filter((c) => c.status === 'Scheduled').length >= MAX_SCHEDULED) {
      throw new DomainException(
        'CONFLICT',
        `Employee ${employeeId} has ${MAX_SCHEDULED} changes scheduled already: cancel or correct one before scheduling another`,
        [{ field: 'effective_date', message: `at most ${MAX_SCHEDULED} scheduled changes per employee` }],
      );
    }
    // What stood before this write: the caller's, when it changed `existing` first (a Scheduled change
    // cancelled by its correction).
    const before = opts.before ?? segmentsAt(existing.map(toRecorded));
    const row: Omit<EmploymentChange, 'id'> = {
      employeeId,
      effectiveDate: input.effectiveDate,
      reason: input.reason,
      fields: JSON.stringify({ ...input.fields, ...input.extra }),
      salary: input.salary === null ? null : JSON.stringify(normalLines(input.salary)),
      status: input.effectiveDate <= today ? 'Effective' : 'Scheduled',
      recordedAt: this.nextInstant(existing),
      recordedBy: actor,
      cancelledAt: null,
      corrects: input.corrects ?? null,
    };
    const [id] = await this.repository.insertChanges(em, [row]);
    const change: EmploymentChange = { id, ...row };
    const all = [...existing, change];
    const after = await this.settle(em, employeeId, all, before, { today, applied: opts.applied });
    await recordAudit(em, {
      action: input.corrects ? 'correct' : 'create',
      resource: CHANGES,
      event: 'employee.change_recorded',
      resourceId: id,
      employee: employeeId,
      after: {
        effective_date: row.effectiveDate,
        reason: row.reason,
        ...input.fields,
        ...input.extra,
        salary: input.salary ? 'set' : null,
        corrects: row.corrects,
      },
    });
    if (change.status === 'Effective') await this.effective(em, change, after);
    return change;
  }

  /**
   * Starts the history of new employees (POST /employees, the employees import): one change from
   * the joined date with their dated values, Effective or Scheduled by that date.
   */
  async startHistories(
    em: EntityManager,
    employees: Employee[],
    actor: number | null,
    extra: ReadonlyMap<number, ExtraValues> = new Map(),
  ): Promise<void> {
    if (!employees.length) return;
    const today = await this.clock.today();
    const recordedAt = new Date();
    const rows = employees.map((e): Omit<EmploymentChange, 'id'> => ({
      employeeId: e.id,
      effectiveDate: e.joinedDate,
      reason: 'Joined',
      fields: JSON.stringify({
        ...Object.fromEntries(DATED_FIELDS.map((f) => [f, e[propOf(f)] ?? null])),
        ...extra.get(e.id),
      }),
      salary: JSON.stringify([]),
      status: e.joinedDate <= today ? 'Effective' : 'Scheduled',
      recordedAt,
      recordedBy: actor,
      cancelledAt: null,
      corrects: null,
    }));
    const ids = await this.repository.insertFirstChanges(em, rows);
    const segments = rows.map((r) =>
      toSegmentRow(r.employeeId, segmentsAt([toRecorded({ id: ids.get(r.employeeId)!, ...r })])[0]),
    );
    await this.repository.replaceSegments(em, [], segments);
  }

  /** Records `employee.change_effective` for a change taking effect: the fields it sets, before and after its day. */
  async effective(em: EntityManager, c: EmploymentChange, segments: Segment[]): Promise<void> {
    const on = segmentOn(segments, c.effectiveDate);
    const prior = segmentOn(segments, addDays(c.effectiveDate, -1));
    const set = storedFields(c.fields);
    const changes: Record<string, [unknown, unknown]> = Object.fromEntries(
      (Object.keys(set.fields) as DatedField[]).map((f) => [f, [prior?.values[f] ?? null, on?.values[f] ?? null]]),
    );
    // Another module's property: [its keys before, after] (as employee.updated carries it).
    for (const [property, values] of Object.entries(set.extra)) {
      const side = (s: Segment | null) =>
        Object.fromEntries(Object.keys(values).map((k) => [k, s?.extra[property]?.[k] ?? null]));
      changes[property] = [side(prior), side(on)];
    }
    await recordEvent(em, 'employee.change_effective', { id: c.id, employee: c.employeeId, changes });
  }

  /**
   * Rewrites the employee's segments from `changes` and applies today's values: the dated columns
   * of the row (with the department hooks and an `employee.updated` event when they move) and the
   * salary (through payroll) when today's differs from before. The new segments.
   */
  async settle(
    em: EntityManager,
    employeeId: number,
    changes: EmploymentChange[],
    before: Segment[],
    opts: { today?: string; applied?: 'fields' | 'salary'; salary?: boolean } = {},
  ): Promise<Segment[]> {
    const { applied } = opts;
    const day = opts.today ?? (await this.clock.today());
    const after = segmentsAt(changes.map(toRecorded));
    // Only from the first segment that differs from the stored ones (Hardening IV item 24): a change
    // touches its own day on, so an employee's earlier stretches are kept, and a change that moves
    // nothing writes nothing (every write had deleted and re-inserted all of them: 0.5 s each with
    // 2 000 changes). Compared with what is stored, not with `before`: the property test found them
    // differing (a correction of a Scheduled change computed `before` without it, since mended),
    // which every write rewriting all of them had hidden.
    const rowsBefore = await this.repository.segmentsOf(em, employeeId);
    const rowsAfter = after.map((s) => toSegmentRow(employeeId, s));
    let same = 0;
    while (same < rowsBefore.length && same < rowsAfter.length && sameRow(rowsBefore[same], rowsAfter[same])) same++;
    const from = [rowsBefore[same]?.effectiveFrom, rowsAfter[same]?.effectiveFrom].filter((d): d is string => !!d).sort()[0];
    if (from) await this.repository.replaceSegmentsFrom(em, employeeId, from, rowsAfter.slice(same));
    const moves = departmentMoves(before, after);
    if (moves.length) for (const hook of this.hooks.department) await hook(em, employeeId, moves);
    const now = segmentOn(after, day);
    if (!now) return after;
    if (applied !== 'fields') await this.applyToday(em, employeeId, now);
    if (applied !== 'salary' && (opts.salary || !sameSalary(segmentOn(before, day)?.salary, now.salary))) {
      if (!this.salaryKeeper) throw new Error('No salary keeper registered');
      await this.salaryKeeper.apply(em, employeeId, now.salary);
    }
    return after;
  }

  /**
   * Makes today's values current when they differ: the dated columns of the employee row, and other
   * modules' dated properties (a key the segment does not hold: none); one audited update.
   */
  private async applyToday(em: EntityManager, employeeId: number, today: Segment): Promise<void> {
    const employee = await em.findOne(Employee, { where: { id: employeeId } });
    if (!employee) throw new NotFoundException('Employee');
    const patch: Partial<Employee> = {};
    for (const f of DATED_FIELDS)
      if (employee[propOf(f)] !== today.values[f]) Object.assign(patch, { [propOf(f)]: today.values[f] });
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    for (const ext of this.hooks.extensions) {
      if (!ext.dated) continue;
      const moved = await ext.dated.apply(em, employeeId, today.extra[ext.property] ?? {});
      if (!Object.keys(moved.after).length) continue;
      before[ext.property] = moved.before;
      after[ext.property] = moved.after;
    }
    if (!Object.keys(patch).length && !Object.keys(after).length) return;
    const row = auditView(employee);
    Object.assign(employee, patch);
    if (Object.keys(patch).length) await em.update(Employee, { id: employeeId }, patch);
    await recordAudit(em, {
      action: 'update',
      resource: 'employees',
      event: 'employee.updated',
      resourceId: employeeId,
      employee: employeeId,
      before: { ...row, ...before },
      after: { ...auditView(employee), ...after },
    });
  }

  /** A recording instant after every one of `changes` (two changes of one day are never recorded at the same instant). */
  nextInstant(changes: EmploymentChange[]): Date {
    const last = Math.max(0, ...changes.flatMap((c) => [c.recordedAt.getTime(), c.cancelledAt?.getTime() ?? 0]));
    return new Date(Math.max(Date.now(), last + 1));
  }
}
