import { DataSource } from 'typeorm';
import { transaction } from '../../common/database/transaction';
import { moveIntoHistory } from '../migrations/1763800000033-EmploymentHistory';

/**
 * Inserts `count` employees in multi-row INSERTs inside one transaction: department
 * `departments[i % n]`, every 10th the supervisor of the next nine, every 7th Terminated.
 * Returns the id of the first inserted row.
 */
export async function bulkEmployees(ds: DataSource, count: number, departments: number[], prefix = 'B'): Promise<number> {
  const batch = 500;
  await transaction(ds, async (em) => {
    for (let start = 0; start < count; start += batch) {
      const rows: string[] = [];
      const params: unknown[] = [];
      for (let i = start; i < Math.min(count, start + batch); i++) {
        rows.push('(?, ?, ?, ?, ?, ?, ?)');
        params.push(
          `${prefix}${String(i).padStart(6, '0')}`,
          `First${i % 997}`,
          `Last${i % 1009}`,
          `2015-01-${String((i % 28) + 1).padStart(2, '0')}`,
          `${prefix.toLowerCase()}${i}@bulk.test`,
          departments[i % departments.length],
          i % 7 === 0 ? 'Terminated' : 'Active',
        );
      }
      await em.query(
        `INSERT INTO employees (employee_id, first_name, last_name, joined_date, work_email, department_id, status) VALUES ${rows.join(', ')}`,
        params,
      );
    }
  });
  const [{ first }] = await ds.query<Array<{ first: number }>>(
    'SELECT MIN(id) AS first FROM employees WHERE employee_id LIKE ?',
    [`${prefix}%`],
  );
  // Supervisors: the first of every ten supervises the other nine.
  await ds.query(`UPDATE employees SET supervisor_id = id - ((id - ?) % 10) WHERE employee_id LIKE ? AND (id - ?) % 10 <> 0`, [
    first,
    `${prefix}%`,
    first,
  ]);
  // Each history starts on the joined date, as a migrated or created employee's does (issue 43).
  await moveIntoHistory((sql, params) => ds.query(sql, params), Number(first) - 1, 'Joined');
  return Number(first);
}
