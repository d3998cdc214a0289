import { DataSource, EntityManager, In } from 'typeorm';
import { transaction, TransactionOptions } from '../../common/database/transaction';
import { Employee } from '../entities/employee.entity';

/**
 * Runs a check-then-write for one employee in a transaction holding the employee's row lock on
 * MySQL/MariaDB, so two concurrent requests for the same employee (punches, leave requests) cannot
 * both pass their checks. On SQLite the transaction helper runs one transaction at a time.
 */
export function withEmployeeLock<T>(
  dataSource: DataSource,
  employeeId: number,
  work: (em: EntityManager) => Promise<T>,
  /** SET_REPLACEMENT for a write that replaces the employee's set of rows. */
  options?: TransactionOptions,
): Promise<T> {
  return transaction(
    dataSource,
    async (em) => {
      await lockEmployeeRows(em, [employeeId]);
      return work(em);
    },
    options,
  );
}

/**
 * Holds the employees' rows until `em`'s transaction ends, on MySQL/MariaDB (ids ascending, so two
 * holders of overlapping sets wait rather than deadlock); SQLite's transactions run one at a time.
 */
export async function lockEmployeeRows(em: EntityManager, employeeIds: readonly number[]): Promise<void> {
  if (em.connection.options.type !== 'mysql' || !employeeIds.length) return;
  await em.getRepository(Employee).find({
    select: { id: true },
    where: { id: In([...employeeIds]) },
    order: { id: 'ASC' },
    lock: { mode: 'pessimistic_write' },
  });
}
