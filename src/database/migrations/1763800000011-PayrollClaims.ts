import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * A payroll's claim counter: every claim of a job-run transition (Processing, Completing) adds one,
 * and the job's id and data carry it, so a job of an earlier claim never runs a later one and two
 * claims in the same second still get distinct job ids.
 */
export class PayrollClaims1763800000011 implements MigrationInterface {
  name = 'PayrollClaims1763800000011';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('payrolls', new TableColumn({ name: 'claim', type: 'integer', default: 0 }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('payrolls', 'claim');
  }
}
