import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * A payroll's current claim: every claim of a job-run transition (Processing, Completing) sets a
 * new random token, and the job's id and data carry it, so a job of an earlier claim never runs a
 * later one, and a job id is never reused (not within the same second, not after a database is
 * restored or an id reused, while Redis still keeps finished jobs under their ids).
 */
export class PayrollClaims1763800000011 implements MigrationInterface {
  name = 'PayrollClaims1763800000011';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('payrolls', new TableColumn({ name: 'claim', type: 'varchar', length: '36', isNullable: true }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('payrolls', 'claim');
  }
}
