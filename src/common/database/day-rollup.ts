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

/** Where employee moves and deletions are announced, in their transaction (EmployeesService). */
export interface EmployeeChanges {
  onDepartmentChange(
    hook: (em: EntityManager, employeeId: number, from: number | null, to: number | null) => Promise<void>,
  ): void;
  onRemove(hook: (em: EntityManager, employeeId: number) => Promise<void>): void;
}

/**
 * Per-day, per-department sums of a large table (attendance, time entries, leave days), so
 * company-wide and department figures over years read a few thousand rows instead of millions.
 * Kept exact in the transaction of every write: `change` for a record written or deleted (from
 * JavaScript), `add` for source rows matching a condition (in SQL), `moveEmployee` when an employee
 * changes department, `forgetEmployee` before it is deleted, `rebuild` after bulk loads that bypass
 * the services (seeds, `hr maintenance:rebuild-insights`). Employees without a department count
 * under 0. Triggers would do the same in the database, but MariaDB fires none on foreign-key
 * cascades and needs extra privileges to create them with binary logging.
 */
export class DayRollup<R extends { employeeId: number }> {
  private readonly keyColumns: string[];

  constructor(private readonly spec: DayRollupSpec<R>) {
    this.keyColumns = ['day', 'department_id', ...(spec.keys ?? []).map((k) => k.column)];
  }

  /** Adds the record's new share and removes its old one (null: created / deleted), under its employee's department. */
  async change(em: EntityManager, before: R | null, after: R | null): Promise<void> {
    const contribution = this.spec.contribution;
    if (!contribution || this.spec.keys?.length)
      throw new Error(`${this.spec.table}: change() needs a contribution and no further keys`);
    const deltas = new Map<string, { department: number; day: string; values: number[] }>();
    const departments = new Map<number, Promise<number>>();
    const add = async (record: R | null, sign: number) => {
      const c = record && contribution(record);
      if (!c) return;
      // One lookup per employee: an update's before and after usually share it.
      if (!departments.has(record.employeeId)) departments.set(record.employeeId, departmentOf(em, record.employeeId));
      const department = await departments.get(record.employeeId)!;
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

  /** Adds (sign 1) or removes (-1) the source rows matching `condition` (SQL over `s`), under their employees' departments. */
  async add(em: EntityManager, sign: 1 | -1, condition: string, params: unknown[]): Promise<void> {
    await this.shift(em, sign, 'COALESCE(e.department_id, 0)', [], condition, params);
  }

  /** Keeps the rollup in step with the employees: a department change moves their history, a deletion takes it out. */
  followEmployees(employees: EmployeeChanges): void {
    employees.onDepartmentChange((em, employeeId, from, to) => this.moveEmployee(em, employeeId, from, to));
    employees.onRemove((em, employeeId) => this.forgetEmployee(em, employeeId));
  }

  /** Before an employee's deletion (its records go with it by foreign key): takes its history out. */
  async forgetEmployee(em: EntityManager, employeeId: number): Promise<void> {
    await this.add(em, -1, 's.employee_id = ?', [employeeId]);
  }

  /** Moves an employee's whole history from one department to another (the employee row may already say either). */
  async moveEmployee(em: EntityManager, employeeId: number, from: number | null, to: number | null): Promise<void> {
    await this.shift(em, -1, '?', [from ?? 0], 's.employee_id = ?', [employeeId]);
    await this.shift(em, 1, '?', [to ?? 0], 's.employee_id = ?', [employeeId]);
  }

  /** Recomputes the whole table from the source (run inside a transaction). */
  async rebuild(query: Query): Promise<void> {
    await query(`DELETE FROM ${this.spec.table}`);
    await query(this.select(1, 'COALESCE(e.department_id, 0)', 'TRUE'));
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
    return `INSERT INTO ${table} (${this.keyColumns.join(', ')}, ${columns.join(', ')})
      SELECT ${[day, department, ...keys].join(', ')}, ${sums.map((s) => (sign === 1 ? s : `-(${s})`)).join(', ')}
      FROM ${source} s JOIN employees e ON e.id = s.employee_id
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

async function departmentOf(em: EntityManager, employeeId: number): Promise<number> {
  const rows = await em.query<Array<{ d: number | string | null }>>('SELECT department_id AS d FROM employees WHERE id = ?', [
    employeeId,
  ]);
  return Number(rows[0]?.d ?? 0);
}
