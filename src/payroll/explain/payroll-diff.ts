import type { DiffCauseKind } from '../dto/payroll-explain.dto';
import { DiffCell } from '../engine/stored-inputs';
import { PayrollColumnDto } from '../dto/payroll-config.dto';
import { timeSlices } from '../../common/async/time-slices';
import { planColumns } from '../engine/payroll-engine';
import { Dec } from '../formula/formula';
import { amountText, engineColumnOf } from '../config/payroll-columns';
import { EmployeeInputs } from '../engine/stored-inputs';
import { findPayrollInput } from '../../common/payroll-inputs/payroll-inputs';
import type { UsedTableVersion } from '../entities/payroll-run.entities';

/*
 * The difference between two payroll runs, cell by cell, each changed cell with its causes
 * (docs/api/decisions.md §18): pure, over what both runs stored (cells, inputs, column snapshots). A cause is an
 * input that differs between the runs and that the cell reads, directly or through the columns it
 * reads: so a salary change is the cause of the cells computed from that component, and of none
 * other.
 */

/** One run as the diff reads it. */
export interface DiffSide {
  columns: PayrollColumnDto[];
  inputs: ReadonlyMap<number, EmployeeInputs>;
  /** Employee → column → its cell (value as stored, edited or not). */
  cells: ReadonlyMap<number, ReadonlyMap<number, DiffCell>>;
  /** The payroll table versions the run read (issue 44); absent: none. */
  tables?: readonly UsedTableVersion[];
  /** The run's period: working days are compared within one period only (issue 65). */
  period?: { from: string; to: string };
}

/** Employee → column → cell, from [employee, column, value, edited] cells (stored, or just computed). */
export function cellMap(cells: Iterable<readonly [number, number, string | null, boolean]>): Map<number, Map<number, DiffCell>> {
  const out = new Map<number, Map<number, DiffCell>>();
  for (const [employee, column, value, edited] of cells) {
    let row = out.get(employee);
    if (!row) out.set(employee, (row = new Map<number, DiffCell>()));
    row.set(column, { value, edited });
  }
  return out;
}

export type DiffCause =
  | { kind: 'joined' }
  | { kind: 'left' }
  | {
      kind: 'salary';
      component: number;
      old: string | null;
      new: string | null;
      /** The employment changes the newer run read that the older did not (issue 44). */
      changes: number[];
    }
  | {
      kind: 'input';
      column: number;
      hook: string;
      /** The input's source (common/payroll-inputs: `attendance`, `leave_requests`, ...). */
      source: string | undefined;
      old: string | null;
      new: string | null;
      added: number[];
      removed: number[];
    }
  | { kind: 'input'; field: string; old: number | null; new: number | null }
  | { kind: 'column'; column: number; changes: Record<string, [unknown, unknown]> }
  | { kind: 'edit'; column: number; old: string | null; new: string | null }
  | { kind: 'rounding'; old: number; new: number }
  | { kind: 'table'; table: number; name: string; old: string | null; new: string | null }
  | { kind: 'calendar'; calendars: number[]; old: number; new: number };

/** An employee's employment dates, as the joined and left causes tell them. */
export interface EmploymentDates {
  joined: string;
  terminated: string | null;
}

/**
 * A joined or left cause told by the employment: a joiner whose joined date is after the older
 * run's period is a new hire (otherwise it was added to the payroll); a leaver whose termination
 * date is before the newer run's period has left (otherwise it was taken off the payroll).
 */
export function employmentCause(
  kind: 'joined' | 'left',
  dates: EmploymentDates | undefined,
  runs: { older: { dateEnd: string }; newer: { dateStart: string } } | null,
) {
  if (kind === 'joined') {
    const joined = dates?.joined ?? null;
    return { kind, joined_date: joined, hired: joined !== null && runs !== null && joined > runs.older.dateEnd };
  }
  const terminated = dates?.terminated ?? null;
  return {
    kind,
    termination_date: terminated,
    terminated: terminated !== null && runs !== null && terminated < runs.newer.dateStart,
  };
}

/** Every cause's kind is one the API names (dto: DIFF_CAUSE_KINDS), and every kind it names is a cause's. */
type SameKinds = [DiffCause['kind']] extends [DiffCauseKind]
  ? [DiffCauseKind] extends [DiffCause['kind']]
    ? true
    : never
  : never;
const sameKinds: SameKinds = true;
void sameKinds;

export interface DiffRow {
  employee: number;
  column: number;
  old: string | null;
  new: string | null;
  /** new − old; null when either is missing (a failed cell, a joiner, a leaver). */
  difference: string | null;
  causes: DiffCause[];
}

/** What a column's value is computed from, itself included: the columns, components, hooks and fields. */
interface Reads {
  columns: Set<number>;
  components: Set<number>;
  hooks: Set<number>;
  fields: Set<string>;
  tables: Set<string>;
}

/** The definition fields that change a column's values (not its name or place). */
const DEFINITION: ReadonlyArray<keyof PayrollColumnDto> = [
  'variable',
  'editable',
  'default_value',
  'salary_components',
  'add_columns',
  'sub_columns',
  'calculation_hook',
  'calculation_hook_args',
  'script',
];

/** Each column's reads, transitively (the snapshot plans: a stored run's columns always do). */
function readsOf(columns: readonly PayrollColumnDto[]): Map<number, Reads> {
  const direct = new Map<number, { columns: number[]; fields: string[]; tables: string[] }>();
  const plan = planColumns(columns.map(engineColumnOf)).plan;
  const byVariable = new Map(columns.map((c) => [c.variable, c.id]));
  for (const p of plan?.planned ?? []) {
    const c = p.column;
    const fromScript = p.formula?.variables.map((v) => byVariable.get(v) as number) ?? [];
    direct.set(
      c.id,
      c.hook
        ? { columns: [], fields: [], tables: [] }
        : {
            columns: [...c.addColumns, ...c.subColumns, ...fromScript],
            fields: p.formula?.employeeFields ?? [],
            tables: p.formula?.tables ?? [],
          },
    );
  }
  const byId = new Map(columns.map((c) => [c.id, c]));
  const out = new Map<number, Reads>();
  const visit = (id: number): Reads => {
    const known = out.get(id);
    if (known) return known;
    const column = byId.get(id);
    const reads: Reads = {
      columns: new Set([id]),
      components: new Set(),
      hooks: new Set(),
      fields: new Set(),
      tables: new Set(),
    };
    out.set(id, reads); // a snapshot has no cycles; this also stops one
    if (!column) return reads;
    if (column.calculation_hook) reads.hooks.add(id);
    else for (const component of column.salary_components) reads.components.add(component);
    for (const f of direct.get(id)?.fields ?? []) reads.fields.add(f);
    for (const t of direct.get(id)?.tables ?? []) reads.tables.add(t);
    for (const d of direct.get(id)?.columns ?? []) {
      const sub = visit(d);
      for (const x of sub.columns) reads.columns.add(x);
      for (const x of sub.components) reads.components.add(x);
      for (const x of sub.hooks) reads.hooks.add(x);
      for (const x of sub.fields) reads.fields.add(x);
      for (const x of sub.tables) reads.tables.add(x);
    }
    return reads;
  };
  for (const c of columns) visit(c.id);
  return out;
}

function sameAmount(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  return a === b || amountText(a) === amountText(b);
}

/** The tables whose version differs between the two runs, as causes (old and new: the versions' days). */
function changedTables(older: readonly UsedTableVersion[], newer: readonly UsedTableVersion[]): Map<string, DiffCause> {
  const out = new Map<string, DiffCause>();
  for (const name of new Set([...older, ...newer].map((t) => t.name))) {
    const [o, n] = [older.find((t) => t.name === name), newer.find((t) => t.name === name)];
    if (o?.version === n?.version) continue;
    out.set(name, {
      kind: 'table',
      table: (n ?? o)!.table,
      name,
      old: o?.effective_from ?? null,
      new: n?.effective_from ?? null,
    });
  }
  return out;
}

/** The columns whose definitions differ between the two snapshots, with what changed ([old, new]). */
export function changedColumns(
  older: readonly PayrollColumnDto[],
  newer: readonly PayrollColumnDto[],
): Map<number, Record<string, [unknown, unknown]>> {
  const before = new Map(older.map((c) => [c.id, c]));
  const after = new Map(newer.map((c) => [c.id, c]));
  const out = new Map<number, Record<string, [unknown, unknown]>>();
  for (const id of new Set([...before.keys(), ...after.keys()])) {
    const b = before.get(id);
    const a = after.get(id);
    const changes: Record<string, [unknown, unknown]> = {};
    for (const field of DEFINITION) {
      const [x, y] = [b?.[field] ?? null, a?.[field] ?? null];
      if (JSON.stringify(x) !== JSON.stringify(y)) changes[field] = [x, y];
    }
    if (Object.keys(changes).length) out.set(id, changes);
  }
  return out;
}

/**
 * The changed cells of `newer` against `older`, employees in `order` and columns in the newer
 * run's order (then those only the older one had), each with its causes. Yields to the event loop
 * between employees every few milliseconds (two runs of 12 500 × 30 are 750 000 cells to compare).
 */
export async function diffRuns(older: DiffSide, newer: DiffSide, order: readonly number[]): Promise<DiffRow[]> {
  const readsNew = readsOf(newer.columns);
  const readsOld = readsOf(older.columns);
  const columnChanges = changedColumns(older.columns, newer.columns);
  const samePeriod =
    older.period !== undefined && older.period.from === newer.period?.from && older.period.to === newer.period.to;
  const tableChanges = changedTables(older.tables ?? [], newer.tables ?? []);
  const columnIds = [...new Set([...newer.columns.map((c) => c.id), ...older.columns.map((c) => c.id)])];
  const hookOf = new Map([...older.columns, ...newer.columns].map((c) => [c.id, c.calculation_hook]));
  const rows: DiffRow[] = [];
  const slices = timeSlices();
  for (const employee of order) {
    if (slices.due()) await slices.pause();
    const before = older.cells.get(employee);
    const after = newer.cells.get(employee);
    const inOld = older.inputs.get(employee);
    const inNew = newer.inputs.get(employee);
    for (const column of columnIds) {
      const o = before?.get(column);
      const n = after?.get(column);
      const oldValue = o?.value ?? null;
      const newValue = n?.value ?? null;
      if ((o === undefined) === (n === undefined) && sameAmount(oldValue, newValue)) continue;
      const row: DiffRow = {
        employee,
        column,
        old: oldValue === null ? null : amountText(oldValue),
        new: newValue === null ? null : amountText(newValue),
        difference: oldValue === null || newValue === null ? null : amountText(new Dec(newValue).minus(oldValue).toString()),
        causes: [],
      };
      rows.push(row);
      if (!before || !inOld) {
        row.causes.push({ kind: 'joined' });
        continue;
      }
      if (!after || !inNew) {
        row.causes.push({ kind: 'left' });
        continue;
      }
      row.causes = causesOf(column, { o, n }, inOld, inNew, readsOld, readsNew, columnChanges, hookOf, before, after);
      const calendar = calendarCause(inOld, inNew, samePeriod);
      if (calendar && countsWorkingDays(row.causes, inOld, inNew, readsOld.get(column), readsNew.get(column)))
        row.causes.push(calendar);
      // A new version of a table the cell reads (issue 44).
      const tables = new Set([...(readsOld.get(column)?.tables ?? []), ...(readsNew.get(column)?.tables ?? [])]);
      for (const name of tables) {
        const change = tableChanges.get(name);
        if (change) row.causes.push(change);
      }
    }
  }
  return rows;
}

type Cells = ReadonlyMap<number, DiffCell>;

/**
 * The employee's calendars differ between the runs, or (runs of one period) its working days in the
 * period (issue 65): null when not, or unknown. Two months' working days differ as a rule: across
 * periods only a change of calendar is a cause.
 */
function calendarCause(inOld: EmployeeInputs, inNew: EmployeeInputs, samePeriod: boolean): DiffCause | null {
  const [o, n] = [inOld.working_days, inNew.working_days];
  if (!o || !n) return null;
  if ((!samePeriod || o.days === n.days) && o.calendars.join() === n.calendars.join()) return null;
  return {
    kind: 'calendar',
    calendars: [...new Set([...o.calendars, ...n.calendars])].sort((a, b) => a - b),
    old: o.days,
    new: n.days,
  };
}

/**
 * Whether a changed cell counts working days: it reads a leave input that changed (the requests'
 * days follow the calendars), or a salary prorated by working days in either run.
 */
function countsWorkingDays(
  causes: readonly DiffCause[],
  inOld: EmployeeInputs,
  inNew: EmployeeInputs,
  a: Reads | undefined,
  b: Reads | undefined,
): boolean {
  if (causes.some((c) => c.kind === 'input' && 'hook' in c && c.source === 'leave_requests')) return true;
  const prorated = inOld.proration?.rule === 'working_days' || inNew.proration?.rule === 'working_days';
  return prorated && (a?.components.size ?? 0) + (b?.components.size ?? 0) > 0;
}

function causesOf(
  column: number,
  own: { o?: DiffCell; n?: DiffCell },
  inOld: EmployeeInputs,
  inNew: EmployeeInputs,
  readsOld: Map<number, Reads>,
  readsNew: Map<number, Reads>,
  columnChanges: Map<number, Record<string, [unknown, unknown]>>,
  hookOf: Map<number, string | null>,
  before: Cells,
  after: Cells,
): DiffCause[] {
  const editOf = (id: number): DiffCause | null => {
    const [o, n] = [before.get(id), after.get(id)];
    if (!o?.edited && !n?.edited) return null;
    if (o?.edited === n?.edited && sameAmount(o?.value ?? null, n?.value ?? null)) return null;
    const text = (v: string | null | undefined) => (v === null || v === undefined ? null : amountText(v));
    return { kind: 'edit', column: id, old: text(o?.value), new: text(n?.value) };
  };
  // An edited cell is its edit: nothing it would have read matters.
  if (own.n?.edited || own.o?.edited) {
    const edit = editOf(column);
    if (edit) return [edit];
  }
  const causes: DiffCause[] = [];
  const a = readsOld.get(column);
  const b = readsNew.get(column);
  const union = <T>(x: Set<T> | undefined, y: Set<T> | undefined) => [...new Set([...(x ?? []), ...(y ?? [])])];
  for (const id of union(a?.columns, b?.columns)) {
    const changes = columnChanges.get(id);
    if (changes) causes.push({ kind: 'column', column: id, changes });
    const edit = id === column ? null : editOf(id);
    if (edit) causes.push(edit);
  }
  for (const component of union(a?.components, b?.components).sort((x, y) => x - y)) {
    const key = String(component);
    const o = Object.hasOwn(inOld.salary, key) ? inOld.salary[key] : null;
    const n = Object.hasOwn(inNew.salary, key) ? inNew.salary[key] : null;
    if (!sameAmount(o, n)) {
      const before = new Set(inOld.salary_changes ?? []);
      const changes = (inNew.salary_changes ?? []).filter((id) => !before.has(id));
      causes.push({ kind: 'salary', component, old: o, new: n, changes });
    }
  }
  for (const id of union(a?.hooks, b?.hooks)) {
    const key = String(id);
    const o = Object.hasOwn(inOld.hooks, key) ? inOld.hooks[key] : undefined;
    const n = Object.hasOwn(inNew.hooks, key) ? inNew.hooks[key] : undefined;
    if (sameAmount(o?.value ?? null, n?.value ?? null)) continue;
    const [was, is] = [new Set(o?.records ?? []), new Set(n?.records ?? [])];
    const hook = hookOf.get(id) ?? '';
    causes.push({
      kind: 'input',
      column: id,
      hook,
      source: findPayrollInput(hook)?.source,
      old: o?.value ?? null,
      new: n?.value ?? null,
      added: [...is].filter((r) => !was.has(r)),
      removed: [...was].filter((r) => !is.has(r)),
    });
  }
  for (const field of union(a?.fields, b?.fields).sort()) {
    const o = (inOld.fields as Record<string, number | null | undefined>)[field] ?? null;
    const n = (inNew.fields as Record<string, number | null | undefined>)[field] ?? null;
    if (o !== n) causes.push({ kind: 'input', field, old: o, new: n });
  }
  if (inOld.minorUnit !== inNew.minorUnit) causes.push({ kind: 'rounding', old: inOld.minorUnit, new: inNew.minorUnit });
  return causes;
}
