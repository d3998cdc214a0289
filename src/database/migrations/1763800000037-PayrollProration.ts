import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 44: payroll on dates (docs/api/decisions.md §20). The proration rule on each pay frequency (calendar days
 * unless an Admin changes it) and, overriding it, on a payroll (null: its pay frequency's). Plain
 * ALTERs: on SQLite TypeORM's addColumn copies the table, and dropping payrolls inside the
 * migration's transaction would cascade to their cells.
 */
export class PayrollProration1763800000037 implements MigrationInterface {
  name = 'PayrollProration1763800000037';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE pay_frequencies ADD COLUMN proration varchar(14) NOT NULL DEFAULT 'calendar_days'`);
    await q.query('ALTER TABLE payrolls ADD COLUMN proration varchar(14) NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE payrolls DROP COLUMN proration');
    await q.query('ALTER TABLE pay_frequencies DROP COLUMN proration');
  }
}
