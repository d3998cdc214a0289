import { MigrationInterface, QueryRunner } from 'typeorm';

const COLUMNS = ['first_name', 'middle_name', 'last_name', 'employee_id', 'work_email'];
const FTS = 'employees_search';
const TRIGGERS = ['employees_search_insert', 'employees_search_delete', 'employees_search_update'];

/**
 * Word-prefix search over the employees' names, employee_id and work_email (`search` on
 * /employees, common/database/full-text.ts): a FULLTEXT index on MariaDB/MySQL; on SQLite an FTS5
 * table over the employees table, kept by triggers. SQLite drops a table's triggers with it: a
 * later migration that makes TypeORM rebuild `employees` on SQLite must call
 * createEmployeeSearchTriggers again.
 */
export class EmployeeSearch1763800000015 implements MigrationInterface {
  name = 'EmployeeSearch1763800000015';

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.options.type !== 'better-sqlite3') {
      await q.query(`CREATE FULLTEXT INDEX ft_employees_search ON employees (${COLUMNS.join(', ')})`);
      return;
    }
    await q.query(
      `CREATE VIRTUAL TABLE ${FTS} USING fts5(${COLUMNS.join(', ')}, content='employees', content_rowid='id', tokenize='unicode61 remove_diacritics 2')`,
    );
    await createEmployeeSearchTriggers(q);
    await q.query(`INSERT INTO ${FTS} (${FTS}) VALUES ('rebuild')`);
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.options.type !== 'better-sqlite3') {
      await q.query('DROP INDEX ft_employees_search ON employees');
      return;
    }
    for (const trigger of TRIGGERS) await q.query(`DROP TRIGGER IF EXISTS ${trigger}`);
    await q.query(`DROP TABLE ${FTS}`);
  }
}

/** SQLite: the triggers that keep employees_search in step with employees. */
export async function createEmployeeSearchTriggers(q: QueryRunner): Promise<void> {
  const cols = COLUMNS.join(', ');
  const of = (row: 'new' | 'old') => COLUMNS.map((c) => `${row}.${c}`).join(', ');
  const remove = `INSERT INTO ${FTS} (${FTS}, rowid, ${cols}) VALUES ('delete', old.id, ${of('old')});`;
  const add = `INSERT INTO ${FTS} (rowid, ${cols}) VALUES (new.id, ${of('new')});`;
  await q.query(`CREATE TRIGGER ${TRIGGERS[0]} AFTER INSERT ON employees BEGIN ${add} END`);
  await q.query(`CREATE TRIGGER ${TRIGGERS[1]} AFTER DELETE ON employees BEGIN ${remove} END`);
  await q.query(`CREATE TRIGGER ${TRIGGERS[2]} AFTER UPDATE OF ${cols} ON employees BEGIN ${remove} ${add} END`);
}
