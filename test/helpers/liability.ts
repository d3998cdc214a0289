import { DataSource } from 'typeorm';
import { okCaller } from './test-app';

/** A row of GET /insights/leave-liability/{period}, without the names. */
export type LiabilityRow = { leave_type: number; department: number | null; employees: number; days: number };

export const byTypeAndDepartment = (a: LiabilityRow, b: LiabilityRow) =>
  a.leave_type - b.leave_type || (a.department ?? 0) - (b.department ?? 0);

/** Rows as the insight answers them, without names, in a stable order. */
export const liabilityRows = (rows: LiabilityRow[]): LiabilityRow[] =>
  rows
    .map(({ leave_type, department, employees, days }) => ({ leave_type, department, employees, days }))
    .sort(byTypeAndDepartment);

/**
 * The leave liability's model: every employee employed on `day` (and kept by `keep`), its balances
 * as GET /employees/{id}/leaves/balance?as_of answers them, the positive ones summed by leave type
 * and the department of that day (GET /employees/{id}?as_of).
 */
export async function liabilityByBalances(
  ok: ReturnType<typeof okCaller>,
  ds: DataSource,
  token: string,
  day: string,
  keep: (e: { id: number; supervisor_id: number | null }) => boolean = () => true,
): Promise<LiabilityRow[]> {
  const employees: Array<{ id: number; supervisor_id: number | null }> = await ds.query(
    'SELECT id, supervisor_id FROM employees WHERE joined_date <= ? AND (termination_date IS NULL OR termination_date >= ?)',
    [day, day],
  );
  const sums = new Map<string, LiabilityRow>();
  for (const e of employees.filter(keep)) {
    const { department } = (await ok('GET', `/employees/${e.id}?as_of=${day}`, token)) as { department: number | null };
    for (const b of await ok('GET', `/employees/${e.id}/leaves/balance?as_of=${day}`, token)) {
      if (b.available <= 0) continue;
      const key = `${b.leave_type}:${department}`;
      const row = sums.get(key) ?? { leave_type: b.leave_type, department, employees: 0, days: 0 };
      row.employees += 1;
      row.days = Math.round((row.days + b.available) * 100) / 100;
      sums.set(key, row);
    }
  }
  return [...sums.values()].sort(byTypeAndDepartment);
}
