import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';

/** The record lists a sync reads by `updated_since`, and the tables that gain `updated_at` for it. */
const LISTS = ['attendance', 'leave_requests', 'time_entries', 'users'] as const;
const ADDED = ['leave_requests', 'time_entries'] as const;

const sqlite = (q: QueryRunner) => q.connection.options.type === 'better-sqlite3';

/**
 * Issue 43: `updated_since` on the record lists (docs/api/decisions.md §19). Leave requests and time entries gain
 * `updated_at` (their creation instant for those already there); each synced list gets an index
 * of it, so a sync's read of what changed since its last run seeks instead of scanning.
 */
export class RecordsUpdatedAt1763800000036 implements MigrationInterface {
  name = 'RecordsUpdatedAt1763800000036';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ADDED) {
      // SQLite cannot add a column whose default is not a constant, and TypeORM's way round it
      // (copy, drop and rename the table) would cascade the drop to leave_days inside the
      // migration's transaction: the column is added plain there, and TypeORM's inserts fill it.
      if (sqlite(q)) await q.query(`ALTER TABLE ${table} ADD COLUMN updated_at datetime`);
      else await q.addColumn(table, new TableColumn({ name: 'updated_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' }));
      await q.query(`UPDATE ${table} SET updated_at = created_at`);
    }
    for (const table of LISTS)
      await q.createIndex(table, new TableIndex({ name: `ix_${table}_updated_at`, columnNames: ['updated_at'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of LISTS) await q.dropIndex(table, `ix_${table}_updated_at`);
    for (const table of ADDED) {
      if (sqlite(q)) await q.query(`ALTER TABLE ${table} DROP COLUMN updated_at`);
      else await q.dropColumn(table, 'updated_at');
    }
  }
}
