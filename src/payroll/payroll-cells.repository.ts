import { EntityManager } from 'typeorm';
import { PayrollCell } from './entities/payroll-run.entities';

/** A cell to write: its new value, and whether it becomes an edited cell (kept when the payroll runs again). */
export interface CellWrite {
  employee: number;
  column: number;
  value: string | null;
  edited?: boolean;
}

/** Cells per UPDATE: three parameters each, well under SQLite's 32 766 and MariaDB's 65 535. */
const CELLS_PER_STATEMENT = 2000;

/**
 * Writes cells of one payroll's existing rows: one UPDATE with a CASE per 2 000 cells (an edit of
 * a few employees' rows is one statement), not one statement per cell. A cell written twice gets
 * its later write, as two UPDATEs in a row would leave it (a CASE takes its first match). Run it at
 * READ COMMITTED (SET_REPLACEMENT): the WHERE reads a range of the primary key, which REPEATABLE
 * READ would lock with its gaps.
 */
export async function updateCells(em: EntityManager, payrollId: number, writes: readonly CellWrite[]): Promise<void> {
  const q = (name: string) => em.connection.driver.escape(name);
  const cells = [...new Map(writes.map((c) => [`${c.employee}:${c.column}`, c])).values()];
  for (let start = 0; start < cells.length; start += CELLS_PER_STATEMENT) {
    const chunk = cells.slice(start, start + CELLS_PER_STATEMENT);
    const params: Record<string, unknown> = { payrollId, employees: [...new Set(chunk.map((c) => c.employee))] };
    const values: string[] = [];
    const edited: string[] = [];
    chunk.forEach((c, i) => {
      Object.assign(params, { [`e${i}`]: c.employee, [`c${i}`]: c.column, [`v${i}`]: c.value });
      const cell = `${q('employee_id')} = :e${i} AND ${q('column_id')} = :c${i}`;
      values.push(`WHEN ${cell} THEN :v${i}`);
      if (c.edited) edited.push(`(${cell})`);
    });
    await em
      .createQueryBuilder()
      .update(PayrollCell)
      .set({
        value: () => `CASE ${values.join(' ')} ELSE ${q('value')} END`,
        ...(edited.length ? { edited: () => `CASE WHEN ${edited.join(' OR ')} THEN 1 ELSE ${q('edited')} END` } : {}),
      })
      .where(`${q('payroll_id')} = :payrollId AND ${q('employee_id')} IN (:...employees)`)
      .setParameters(params)
      .execute();
  }
}
