import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * MariaDB's TEXT holds 65 535 bytes: a payslip template of 40 000 'é' (the API accepts 100 000
 * characters) failed with "Data too long", and so did a payslip rendered past 64 KB (a render may
 * produce 1 000 000 characters). MEDIUMTEXT holds 16 MB, what both may need at 4 bytes a
 * character. SQLite's TEXT has no such limit: nothing to do there.
 */
const WIDE = [
  ['payslip_templates', 'content'],
  ['payslips', 'html'],
] as const;

export class WideTextColumns1763800000020 implements MigrationInterface {
  name = 'WideTextColumns1763800000020';

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.options.type !== 'mysql') return;
    for (const [table, column] of WIDE) await q.query(`ALTER TABLE \`${table}\` MODIFY \`${column}\` MEDIUMTEXT NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.options.type !== 'mysql') return;
    for (const [table, column] of WIDE) await q.query(`ALTER TABLE \`${table}\` MODIFY \`${column}\` TEXT NOT NULL`);
  }
}
