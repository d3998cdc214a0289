import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 66 (docs/api/custom-fields.md, "Dated fields"): the values other modules date through the
 * employment history (a dated custom field), per segment: JSON, property → key → value, null when
 * none. A column added in place on both databases (no copy of the table).
 */
export class DatedExtensions1763800000052 implements MigrationInterface {
  name = 'DatedExtensions1763800000052';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE employment_segments ADD COLUMN extra TEXT NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE employment_segments DROP COLUMN extra');
  }
}
