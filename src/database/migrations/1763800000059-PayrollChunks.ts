import { MigrationInterface, QueryRunner, Table, TableForeignKey } from 'typeorm';

/**
 * Issue 70 (docs/api/payroll.md, "Processing in chunks"): a run's cells and errors are written
 * under the run's revision, chunk by chunk, and become the payroll's in one step at the end.
 * payroll_cells: `revision` last in the primary key (two runs' cells side by side until the last
 * step; reads by payroll and employee keep their prefix);
 * payroll_errors: `revision`; payrolls: `cells_revision` (the revision its cells and errors are
 * read at) and `run_revision` (the revision of its latest claim to be processed);
 * payroll_chunks: one row per chunk of a run.
 */
export class PayrollChunks1763800000059 implements MigrationInterface {
  name = 'PayrollChunks1763800000059';

  async up(q: QueryRunner): Promise<void> {
    // Plain ALTERs: TypeORM's own would rebuild SQLite tables from a schema it read before earlier
    // migrations' plain ALTERs (payrolls.proration), losing their columns.
    await q.query('ALTER TABLE payrolls ADD COLUMN cells_revision integer NOT NULL DEFAULT 0');
    await q.query('ALTER TABLE payrolls ADD COLUMN run_revision integer NOT NULL DEFAULT 0');
    // The next run's revision follows the stored inputs' (their rows keep theirs).
    await q.query('UPDATE payrolls SET run_revision = COALESCE(inputs_revision, 0)');
    if (q.connection.options.type === 'better-sqlite3') await this.cellsKeySqlite(q, true);
    else
      // One statement: the foreign key on payroll_id needs an index starting with it at every moment.
      await q.query(
        'ALTER TABLE payroll_cells ADD COLUMN revision integer NOT NULL DEFAULT 0, ' +
          'DROP PRIMARY KEY, ADD PRIMARY KEY (payroll_id, employee_id, column_id, revision)',
      );
    // Nothing reads cells by column alone, and every cell a run writes went into this index too
    // (SQLite's table was built again without it).
    if (q.connection.options.type === 'mysql') await q.query('DROP INDEX ix_payroll_cells_column ON payroll_cells');
    await q.query('ALTER TABLE payroll_errors ADD COLUMN revision integer NOT NULL DEFAULT 0');
    await q.query('CREATE INDEX ix_payroll_errors_revision ON payroll_errors (payroll_id, revision)');
    await q.createTable(
      new Table({
        name: 'payroll_chunks',
        columns: [
          { name: 'payroll_id', type: 'integer', isPrimary: true },
          { name: 'revision', type: 'integer', isPrimary: true },
          { name: 'chunk', type: 'integer', isPrimary: true },
          { name: 'employees', type: 'text' },
          { name: 'size', type: 'integer' },
          { name: 'column_set_id', type: 'integer' },
          { name: 'table_versions', type: 'text' },
          { name: 'status', type: 'varchar', length: '8' },
          { name: 'errors', type: 'integer', default: 0 },
        ],
        // A deleted payroll takes its runs' chunks along.
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_payroll_chunks_payroll_id',
            columnNames: ['payroll_id'],
            referencedTableName: 'payrolls',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('payroll_chunks');
    if (q.connection.options.type === 'mysql') await q.query('CREATE INDEX ix_payroll_cells_column ON payroll_cells (column_id)');
    await q.dropIndex('payroll_errors', 'ix_payroll_errors_revision');
    await q.query(
      'DELETE FROM payroll_errors WHERE revision <> (SELECT p.cells_revision FROM payrolls p WHERE p.id = payroll_errors.payroll_id)',
    );
    await q.query('ALTER TABLE payroll_errors DROP COLUMN revision');
    await q.query(
      'DELETE FROM payroll_cells WHERE revision <> (SELECT p.cells_revision FROM payrolls p WHERE p.id = payroll_cells.payroll_id)',
    );
    if (q.connection.options.type === 'better-sqlite3') await this.cellsKeySqlite(q, false);
    else
      await q.query(
        'ALTER TABLE payroll_cells DROP PRIMARY KEY, ADD PRIMARY KEY (payroll_id, employee_id, column_id), DROP COLUMN revision',
      );
    await q.query('ALTER TABLE payrolls DROP COLUMN run_revision');
    await q.query('ALTER TABLE payrolls DROP COLUMN cells_revision');
  }

  /** SQLite changes no primary key in place: payroll_cells is built again, with or without `revision`. */
  private async cellsKeySqlite(q: QueryRunner, withRevision: boolean): Promise<void> {
    const revision = withRevision ? ', "revision" integer NOT NULL DEFAULT (0)' : '';
    const key = withRevision
      ? '"payroll_id", "employee_id", "column_id", "revision"'
      : '"payroll_id", "employee_id", "column_id"';
    await q.query(
      'CREATE TABLE "payroll_cells_new" ("payroll_id" integer NOT NULL, "employee_id" integer NOT NULL, ' +
        `"column_id" integer NOT NULL, "value" decimal(14,3), "edited" boolean NOT NULL DEFAULT (0)${revision}, ` +
        `CONSTRAINT "fk_payroll_cells_payroll_id" FOREIGN KEY ("payroll_id") REFERENCES "payrolls" ("id") ON DELETE CASCADE, PRIMARY KEY (${key}))`,
    );
    await q.query(
      'INSERT INTO "payroll_cells_new" ("payroll_id", "employee_id", "column_id", "value", "edited") ' +
        'SELECT "payroll_id", "employee_id", "column_id", "value", "edited" FROM "payroll_cells"',
    );
    await q.query('DROP TABLE "payroll_cells"');
    await q.query('ALTER TABLE "payroll_cells_new" RENAME TO "payroll_cells"');
    if (!withRevision) await q.query('CREATE INDEX "ix_payroll_cells_column" ON "payroll_cells" ("column_id")');
  }
}
