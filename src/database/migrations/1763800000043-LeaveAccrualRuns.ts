import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * Issue 49: the daily accrual job's runs. Each run records the day it accrued up to and how far it
 * had read the leave ledger and the audit log, so that the next run reads only the employees with
 * something due since then or a change since then (LeaveAccrualsService.daily).
 */
export class LeaveAccrualRuns1763800000043 implements MigrationInterface {
  name = 'LeaveAccrualRuns1763800000043';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'leave_accrual_runs',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'day', type: 'date' },
          { name: 'full_run', type: 'boolean' },
          { name: 'ledger_mark', type: 'integer' },
          { name: 'audit_mark', type: 'integer' },
          { name: 'employees', type: 'integer' },
          { name: 'written', type: 'integer' },
          { name: 'finished_at', type: 'datetime' },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('leave_accrual_runs');
  }
}
