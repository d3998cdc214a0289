import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * Issue 49: the ids below a mark that could not be read when it was taken (a transaction still open
 * or rolled back: src/leave/ledger/change-marks.ts), kept with the marks of the daily accrual job's
 * runs and of the leave liability's days, so that the next read reads them again.
 */
export class ChangeMarkHoles1763800000045 implements MigrationInterface {
  name = 'ChangeMarkHoles1763800000045';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['leave_accrual_runs', 'leave_liability_days'])
      await q.addColumn(table, new TableColumn({ name: 'holes', type: 'text', isNullable: true }));
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['leave_accrual_runs', 'leave_liability_days']) await q.dropColumn(table, 'holes');
  }
}
