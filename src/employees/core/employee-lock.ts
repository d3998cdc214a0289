import { DataSource, EntityManager } from 'typeorm';
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
      if (dataSource.options.type === 'mysql') {
        await em.getRepository(Employee).findOne({ where: { id: employeeId }, lock: { mode: 'pessimistic_write' } });
      }
      return work(em);
    },
    options,
  );
}
