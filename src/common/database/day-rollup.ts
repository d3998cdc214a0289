import { DataSource, EntityManager } from 'typeorm';

/** A record's share of a rollup: its day (YYYY-MM-DD) and one number per summed column. */
export interface Contribution {
  day: string;
  values: number[];
}

export interface DayRollupSpec<R extends { employeeId: number }> {
  /** The rollup table: primary key (day, department_id, ...keys), then `columns`. */
  table: string;
  /** Further key columns and their expressions over the source row `s` (leave: status, type). */
  keys?: Array<{ column: string; expr: string }>;
  columns: string[];
  /** The source table, aliased `s`, with an `employee_id` column. */
  source: string;
  /** The day of a source row (a DATE expression over `s`). */
  day: string;
  /** The sums of `columns` over source rows, in that order. */
  sums: string[];
  /** Which source rows count (SQL over `s`), if not all. */
  where?: string;
  /** The same in JavaScript, for one record (null: it counts nowhere); for rollups without further keys. */
  contribution?: (record: R) => Contribution | null;
}

type Query = (sql: string, params?: unknown[]) => Promise<unknown>;

/**
 * Days of an employee whose department changed when its employment history was rewritten: from
 * `from` to `to` (inclusive; null: open), its records move from `before` to `after` (null: none).
 */
export interface DepartmentMove {
  from: string;
  to: string | null;
  before: number | null;
  after: number | null;
}

/** Where employee moves and deletions are announced, in their transaction (EmployeesService). */
export interface EmployeeChanges {
  onDepartmentChange(hook: (em: EntityManager, employeeId: number, moves: DepartmentMove[]) => Promise<void>): void;
  onRemove(hook: (em: EntityManager, employeeId: number) => Promise<void>): void;
}

/**
 * Per-day, per-department sums of a large table (attendance, time entries, leave days), so
 * company-wide and department figures over years read a few thousand rows instead of millions.
 * A record counts under the department its employee had on the record's day, from the employment
 * history (employment_segments; a day outside it, before joining, under 0). Kept exact in the
 * transaction of every write: `change` for a record written or deleted (from JavaScript), `add`
 * for source rows matching a condition (in SQL), `moveEmployee` when a rewrite of an employee's
 * history changes the department of some of its days, `forgetEmployee` before it is deleted,
 * `rebuild` after bulk loads that bypass the services (seeds, `hr maintenance:rebuild-insights`).
 * Days without a department count under 0. Triggers would do the same in the database, but MariaDB fires none on foreign-key
 * cascades and needs extra privileges to create them with binary logging.
 */
export class DayRollup<R extends { employeeId: number }> {
  private readonly keyColumns: string[];

  constructor(private readonly spec: DayRollupSpec<R>) {
    this.keyColumns = ['day', 'department_id', ...(spec.keys ?? []).map((k) => k.column)];
  }

  /** Adds the record's new share and removes its old one (null: created / deleted), under its employee's department of its day. */
  async change(em: EntityManager, before: R | null, after: R | null): Promise<void> {
    const contribution = this.spec.contribution;
    if (!contribution || this.spec.keys?.length)
      throw new Error(`${this.spec.table}: change() needs a contribution and no further keys`);
    const deltas = new Map<string, { department: number; day: string; values: number[] }>();
    const departments = new Map<string, Promise<number>>();
    const add = async (record: R | null, sign: number) => {
      const c = record && contribution(record);
      if (!c) return;
      // One lookup per employee and day: an update's before and after usually share it.
      const of = `${record.employeeId}|${c.day}`;
      if (!departments.has(of)) departments.set(of, departmentOn(em, record.employeeId, c.day));
      const department = await departments.get(of)!;
      const key = `${c.day}|${department}`;
      const delta = deltas.get(key) ?? { department, day: c.day, values: this.spec.columns.map(() => 0) };
      c.values.forEach((v, i) => (delta.values[i] += sign * v));
      deltas.set(key, delta);
    };
    await add(before, -1);
    await add(after, 1);
    // In key order, so concurrent writers lock rollup rows in the same order.
    const rows = [...deltas]
      .filter(([, d]) => d.values.some((v) => v !== 0))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([, d]) => d);
    if (!rows.length) return;
    const { table, columns } = this.spec;
    const tuple = `(?, ?, ${columns.map(() => '?').join(', ')})`;
    await em.query(
      `INSERT INTO ${table} (day, department_id, ${columns.join(', ')}) VALUES ${rows.map(() => tuple).join(', ')}${this.accumulate(em.connection)}`,
      rows.flatMap((d) => [d.day, d.department, ...d.values]),
    );
  }

  /** Adds (sign 1) or removes (-1) the source rows matching `condition` (SQL over `s`), under their employees' departments of their days. */
  async add(em: EntityManager, sign: 1 | -1, condition: string, params: unknown[]): Promise<void> {
    await this.shift(em, sign, DAY_DEPARTMENT, [], condition, params);
  }

  /** Keeps the rollup in step with the employees: a department change moves their history, a deletion takes it out. */
  followEmployees(employees: EmployeeChanges): void {
    employees.onDepartmentChange((em, employeeId, moves) => this.moveEmployee(em, employeeId, moves));
    employees.onRemove((em, employeeId) => this.forgetEmployee(em, employeeId));
  }

  /** Before an employee's deletion (its records go with it by foreign key): takes its history out. */
  async forgetEmployee(em: EntityManager, employeeId: number): Promise<void> {
    await this.add(em, -1, 's.employee_id = ?', [employeeId]);
  }

  /** Moves the employee's records of the moved days from their old department to their new one (the segments may already say either). */
  async moveEmployee(em: EntityManager, employeeId: number, moves: DepartmentMove[]): Promise<void> {
    const { day } = this.spec;
    for (const m of moves) {
      const condition = `s.employee_id = ? AND ${day} >= ?${m.to === null ? '' : ` AND ${day} <= ?`}`;
      const params = [employeeId, m.from, ...(m.to === null ? [] : [m.to])];
      await this.shift(em, -1, '?', [m.before ?? 0], condition, params);
      await this.shift(em, 1, '?', [m.after ?? 0], condition, params);
    }
  }

  /**
   * Recomputes the whole table from the source (run inside a transaction). `by: 'employee'` counts
   * every record under its employee's department of today, as before the employment history
   * (migrations that run before its tables exist, and the history migration's way down).
   */
  async rebuild(query: Query, by: 'history' | 'employee' = 'history'): Promise<void> {
    await query(`DELETE FROM ${this.spec.table}`);
    await query(this.select(1, by === 'history' ? DAY_DEPARTMENT : EMPLOYEE_DEPARTMENT, 'TRUE'));
  }

  /** Adds the per-key sums of the matching source rows, times `sign`, to the rollup. */
  private async shift(
    em: EntityManager,
    sign: 1 | -1,
    department: string,
    departmentParams: unknown[],
    condition: string,
    params: unknown[],
  ): Promise<void> {
    await em.query(`${this.select(sign, department, condition)}${this.accumulate(em.connection)}`, [
      ...departmentParams,
      ...params,
    ]);
  }

  private select(sign: 1 | -1, department: string, condition: string): string {
    const { table, columns, source, day, sums, where } = this.spec;
    const keys = (this.spec.keys ?? []).map((k) => k.expr);
    // A department given as a parameter is a constant: not grouped by (MySQL reads GROUP BY 3 as a column position).
    const group = [day, ...(department === '?' ? [] : [department]), ...keys].join(', ');
    // The segment of the record's day, when the department is read from it (a constant needs none).
    const segment =
      department === DAY_DEPARTMENT
        ? ` LEFT JOIN employment_segments g ON g.employee_id = s.employee_id AND g.effective_from <= ${day} AND (g.effective_to IS NULL OR g.effective_to >= ${day})`
        : department === EMPLOYEE_DEPARTMENT
          ? ' JOIN employees e ON e.id = s.employee_id'
          : '';
    return `INSERT INTO ${table} (${this.keyColumns.join(', ')}, ${columns.join(', ')})
      SELECT ${[day, department, ...keys].join(', ')}, ${sums.map((s) => (sign === 1 ? s : `-(${s})`)).join(', ')}
      FROM ${source} s${segment}
      WHERE ${condition}${where ? ` AND ${where}` : ''} GROUP BY ${group}`;
  }

  /** The upsert clause adding the inserted values to an existing row of the same key. */
  private accumulate(ds: DataSource): string {
    const { columns } = this.spec;
    return ds.options.type === 'better-sqlite3'
      ? ` ON CONFLICT (${this.keyColumns.join(', ')}) DO UPDATE SET ${columns.map((c) => `${c} = ${c} + excluded.${c}`).join(', ')}`
      : ` ON DUPLICATE KEY UPDATE ${columns.map((c) => `${this.spec.table}.${c} = ${this.spec.table}.${c} + VALUES(${c})`).join(', ')}`;
  }
}

/** The department of a source row's day, from the segment joined as `g` (0: none, or no segment that day). */
const DAY_DEPARTMENT = 'COALESCE(g.department_id, 0)';
/** The department of today, from the employee row joined as `e`. */
const EMPLOYEE_DEPARTMENT = 'COALESCE(e.department_id, 0)';

/** The employee's department on `day` from its employment history (0: none, or not employed then). */
async function departmentOn(em: EntityManager, employeeId: number, day: string): Promise<number> {
  const rows = await em.query<Array<{ d: number | string | null }>>(
    'SELECT department_id AS d FROM employment_segments WHERE employee_id = ? AND effective_from <= ? AND (effective_to IS NULL OR effective_to >= ?)',
    [employeeId, day, day],
  );
  return Number(rows[0]?.d ?? 0);
}
