import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * Issue 49: the leave liability kept as a table. Per day asked about, the positive available
 * balance of every employee employed that day by leave type, with the department of that day, and
 * how far the leave ledger and the audit log had been read when they were computed; a request
 * recomputes only the employees changed since (LeaveLiabilityService) and sums the table.
 */
export class LeaveLiabilitySnapshots1763800000044 implements MigrationInterface {
  name = 'LeaveLiabilitySnapshots1763800000044';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'leave_liability_days',
        columns: [
          { name: 'day', type: 'date', isPrimary: true },
          { name: 'ledger_mark', type: 'integer' },
          { name: 'audit_mark', type: 'integer' },
          /** When it was last asked for (epoch milliseconds): the least recently used days are dropped. */
          { name: 'used_ms', type: 'bigint' },
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'leave_liability_balances',
        columns: [
          { name: 'day', type: 'date', isPrimary: true },
          { name: 'employee_id', type: 'integer', isPrimary: true },
          { name: 'leave_type_id', type: 'integer', isPrimary: true },
          { name: 'department_id', type: 'integer', isNullable: true },
          { name: 'available', type: 'integer' },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('leave_liability_balances');
    await q.dropTable('leave_liability_days');
  }
}
