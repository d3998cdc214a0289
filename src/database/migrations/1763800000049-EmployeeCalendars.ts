import { MigrationInterface, QueryRunner, TableColumn, TableForeignKey } from 'typeorm';

const TABLES = ['employees', 'employment_segments'];

/**
 * Issue 65 item 3: `calendar` is a dated field of the employment history (docs/api/calendars.md).
 * Null is "the default calendar" (GET /employees/{id} answers the default's id), so nobody moves
 * calendar by this migration and a recorded change sets it from its day on.
 */
export class EmployeeCalendars1763800000049 implements MigrationInterface {
  name = 'EmployeeCalendars1763800000049';

  async up(q: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      // On SQLite a plain ALTER without a foreign key (SQLite drops no column a key names): TypeORM would rebuild the table, losing the full-text triggers and
      // the indexes made in SQL (as 1763800000036 does).
      if (q.connection.options.type === 'better-sqlite3') {
        await q.query(`ALTER TABLE ${table} ADD COLUMN calendar_id integer`);
        continue;
      }
      await q.addColumn(table, new TableColumn({ name: 'calendar_id', type: 'integer', isNullable: true }));
      await q.createForeignKey(
        table,
        new TableForeignKey({
          name: `fk_${table}_calendar`,
          columnNames: ['calendar_id'],
          referencedTableName: 'calendars',
          referencedColumnNames: ['id'],
        }),
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      if (q.connection.options.type === 'better-sqlite3') {
        await q.query(`ALTER TABLE ${table} DROP COLUMN calendar_id`);
        continue;
      }
      await q.dropForeignKey(table, `fk_${table}_calendar`);
      await q.dropColumn(table, 'calendar_id');
    }
  }
}
