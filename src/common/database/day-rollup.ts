import { DataSource, EntityManager } from 'typeorm';

/** A record's share of a rollup: its day (YYYY-MM-DD) and one number per summed column; null when it counts nowhere. */
export interface Contribution {
  day: string;
  values: number[];
}

export interface DayRollupSpec<R extends { employeeId: number }> {
  /** The rollup table: (day, department_id) primary key, then `columns`. */
  table: string;
  columns: string[];
  /** The source table, aliased `s`, with an `employee_id` column. */
  source: string;
  /** The day of a source row (a DATE expression over `s`). */
  day: string;
  /** The sums of `columns` over source rows, in that order. */
  sums: string[];
  /** Which source rows count (SQL over `s`), if not all. */
  where?: string;
  /** The same in JavaScript, for one record. */
  contribution(record: R): Contribution | null;
}

type Query = (sql: string, params?: unknown[]) => Promise<unknown>;

/**
 * Per-day, per-department sums of a large table (attendance, time entries), so company-wide and
 * department figures over years read a few thousand rows instead of millions. Kept exact in the
 * transaction of every write: `change` for a record written or deleted, `moveEmployee` when an
 * employee changes department or is deleted, `rebuild` after bulk loads that bypass the services
 * (seeds, `hr maintenance:rebuild-insights`). Employees without a department count under 0.
 */
export class DayRollup<R extends { employeeId: number }> {
  constructor(private readonly spec: DayRollupSpec<R>) {}

  /** Adds the record's new share and removes its old one (null: created / deleted), under its employee's department. */
  async change(em: EntityManager, before: R | null, after: R | null): Promise<void> {
    const deltas = new Map<string, { department: number; day: string; values: number[] }>();
    const add = async (record: R | null, sign: number) => {
      const c = record && this.spec.contribution(record);
      if (!c) return;
      const department = await departmentOf(em, record.employeeId);
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
      `INSERT INTO ${table} (day, department_id, ${columns.join(', ')}) VALUES ${rows.map(() => tuple).join(', ')}${accumulate(em.connection, columns)}`,
      rows.flatMap((d) => [d.day, d.department, ...d.values]),
    );
  }

  /** Before an employee's deletion (its records go with it by foreign key): takes its history out. */
  async forgetEmployee(em: EntityManager, employeeId: number): Promise<void> {
    await this.shift(em, employeeId, [[-1, await departmentOf(em, employeeId)]]);
  }

  /** Moves an employee's whole history from one department to another. */
  async moveEmployee(em: EntityManager, employeeId: number, from: number | null, to: number | null): Promise<void> {
    await this.shift(em, employeeId, [
      [-1, from ?? 0],
      [1, to ?? 0],
    ]);
  }

  /** Adds the employee's per-day sums, times each sign, to each department. */
  private async shift(em: EntityManager, employeeId: number, shifts: Array<[sign: number, department: number]>): Promise<void> {
    const { table, columns, source, day, sums, where } = this.spec;
    for (const [sign, department] of shifts) {
      await em.query(
        `INSERT INTO ${table} (day, department_id, ${columns.join(', ')})
         SELECT ${day}, ?, ${sums.map((s) => `${sign} * (${s})`).join(', ')} FROM ${source} s
         WHERE s.employee_id = ?${where ? ` AND ${where}` : ''} GROUP BY ${day}${accumulate(em.connection, columns)}`,
        [department, employeeId],
      );
    }
  }

  /** Recomputes the whole table from the source (run inside a transaction). */
  async rebuild(query: Query): Promise<void> {
    const { table, columns, source, day, sums, where } = this.spec;
    const department = 'COALESCE(e.department_id, 0)';
    await query(`DELETE FROM ${table}`);
    await query(
      `INSERT INTO ${table} (day, department_id, ${columns.join(', ')})
       SELECT ${day}, ${department}, ${sums.join(', ')} FROM ${source} s JOIN employees e ON e.id = s.employee_id
       ${where ? `WHERE ${where}` : ''} GROUP BY ${day}, ${department}`,
    );
  }
}

async function departmentOf(em: EntityManager, employeeId: number): Promise<number> {
  const rows = await em.query<Array<{ d: number | string | null }>>('SELECT department_id AS d FROM employees WHERE id = ?', [
    employeeId,
  ]);
  return Number(rows[0]?.d ?? 0);
}

/** The upsert clause adding the inserted values to an existing (day, department_id) row. */
function accumulate(ds: DataSource, columns: string[]): string {
  return ds.options.type === 'better-sqlite3'
    ? ` ON CONFLICT (day, department_id) DO UPDATE SET ${columns.map((c) => `${c} = ${c} + excluded.${c}`).join(', ')}`
    : ` ON DUPLICATE KEY UPDATE ${columns.map((c) => `${c} = ${c} + VALUES(${c})`).join(', ')}`;
}
