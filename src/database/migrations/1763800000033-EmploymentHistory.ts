import Decimal from 'decimal.js';
import { MigrationInterface, QueryRunner, Table, TableColumnOptions, TableIndex } from 'typeorm';

/** The dated columns of `employees`, in the order both tables hold them. */
export const DATED_COLUMNS = [
  'job_title_id',
  'department_id',
  'pay_grade_id',
  'employment_status_id',
  'supervisor_id',
  'approver1_id',
  'approver2_id',
  'approver3_id',
] as const;
/** Their API names, the keys of a change's `fields`. */
const DATED_FIELDS = [
  'job_title',
  'department',
  'pay_grade',
  'employment_status',
  'supervisor',
  'approver1',
  'approver2',
  'approver3',
];

/** Employees moved in per batch. */
const BATCH = 1000;

/**
 * Issue 43: employment history (docs/api/decisions.md §19). `employment_changes` holds every recorded change of
 * the dated fields and the salary; `employment_segments` the history they make as known now (one
 * row per stretch of days with one set of values), which the as-of reads join. The unique key of
 * a change (employee, day, recording instant) holds the order of two changes of one day.
 *
 * Moving in: each employee gets one change from its joined date with today's values and salary.
 */
export class EmploymentHistory1763800000033 implements MigrationInterface {
  name = 'EmploymentHistory1763800000033';

  async up(q: QueryRunner): Promise<void> {
    const mysql = q.connection.options.type === 'mysql';
    const instant = (name: string, isNullable = false): TableColumnOptions => ({
      name,
      type: 'datetime',
      precision: mysql ? 3 : undefined,
      isNullable,
    });
    const ids: TableColumnOptions[] = DATED_COLUMNS.map((name) => ({ name, type: 'integer', isNullable: true }));
    const cascade = (table: string) => ({
      name: `fk_${table}_employee`,
      columnNames: ['employee_id'],
      referencedTableName: 'employees',
      referencedColumnNames: ['id'],
      onDelete: 'CASCADE',
    });
    await q.createTable(
      new Table({
        name: 'employment_changes',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'employee_id', type: 'integer' },
          { name: 'effective_date', type: 'date' },
          { name: 'reason', type: 'varchar', length: '500', isNullable: true },
          { name: 'fields', type: 'text' },
          { name: 'salary', type: 'text', isNullable: true },
          { name: 'status', type: 'varchar', length: '10' },
          instant('recorded_at'),
          { name: 'recorded_by', type: 'integer', isNullable: true },
          instant('cancelled_at', true),
          { name: 'corrects', type: 'integer', isNullable: true },
        ],
        indices: [
          // Two changes of one employee and day are ordered by their recording: never equal.
          new TableIndex({
            name: 'uq_employment_changes_order',
            columnNames: ['employee_id', 'effective_date', 'recorded_at'],
            isUnique: true,
          }),
          // The daily job's "Scheduled and due".
          new TableIndex({ name: 'ix_employment_changes_due', columnNames: ['status', 'effective_date'] }),
        ],
        foreignKeys: [cascade('employment_changes')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'employment_segments',
        columns: [
          { name: 'employee_id', type: 'integer', isPrimary: true },
          { name: 'effective_from', type: 'date', isPrimary: true },
          { name: 'effective_to', type: 'date', isNullable: true },
          ...ids,
          { name: 'salary', type: 'text' },
          { name: 'change_id', type: 'integer' },
        ],
        indices: [
          // "Who was in Engineering on 30 June": a page walks it in employee order and stops at its
          // end, a count reads nothing else.
          new TableIndex({
            name: 'ix_employment_segments_department',
            columnNames: ['department_id', 'employee_id', 'effective_from', 'effective_to'],
          }),
        ],
        foreignKeys: [cascade('employment_segments')],
      }),
    );
    await moveIntoHistory((sql, params) => q.query(sql, params) as Promise<Array<Record<string, unknown>>>, 0, 'Moved in');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('employment_segments');
    await q.dropTable('employment_changes');
  }
}

/**
 * One change and one segment per employee of id > `after`, from its joined date, with its dated
 * values and salary of now: the migration's move-in, and the bulk seed's (benchmarks) for the
 * employees it inserted. `query` runs one statement (a QueryRunner's or a DataSource's).
 */
export async function moveIntoHistory(
  query: (sql: string, params: unknown[]) => Promise<Array<Record<string, unknown>>>,
  afterId: number,
  reason: string,
): Promise<void> {
  const now = new Date().toISOString().slice(0, 23).replace('T', ' ');
  let after = afterId;
  for (;;) {
    const employees = await query(
      `SELECT id, joined_date, ${DATED_COLUMNS.join(', ')} FROM employees WHERE id > ? ORDER BY id LIMIT ${BATCH}`,
      [after],
    );
    if (!employees.length) return;
    const idList = employees.map((e) => Number(e.id));
    after = idList[idList.length - 1];
    const salaries = new Map<number, Array<{ component: number; amount: string }>>();
    const rows = (await query(
      `SELECT employee_id, component_id, amount FROM employee_salaries WHERE employee_id IN (${idList.map(() => '?').join(', ')}) ORDER BY employee_id, component_id`,
      idList,
    )) as Array<{ employee_id: number | string; component_id: number | string; amount: number | string }>;
    for (const r of rows) {
      const id = Number(r.employee_id);
      const line = { component: Number(r.component_id), amount: new Decimal(String(r.amount)).toFixed(2) };
      salaries.set(id, [...(salaries.get(id) ?? []), line]);
    }
    const values = (e: Record<string, unknown>) => DATED_COLUMNS.map((c) => (e[c] == null ? null : Number(e[c])));
    const day = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10));
    await query(
      `INSERT INTO employment_changes (employee_id, effective_date, reason, fields, salary, status, recorded_at) VALUES ${employees
        .map(() => `(?, ?, ?, ?, ?, 'Effective', ?)`)
        .join(', ')}`,
      employees.flatMap((e) => {
        const v = values(e);
        const fields = Object.fromEntries(DATED_FIELDS.map((f, i) => [f, v[i]]));
        return [e.id, day(e.joined_date), reason, JSON.stringify(fields), JSON.stringify(salaries.get(Number(e.id)) ?? []), now];
      }),
    );
    const changes = (await query(
      `SELECT id, employee_id FROM employment_changes WHERE employee_id IN (${idList.map(() => '?').join(', ')})`,
      idList,
    )) as Array<{ id: number | string; employee_id: number | string }>;
    const changeOf = new Map(changes.map((c) => [Number(c.employee_id), Number(c.id)]));
    await query(
      `INSERT INTO employment_segments (employee_id, effective_from, effective_to, ${DATED_COLUMNS.join(', ')}, salary, change_id) VALUES ${employees
        .map(() => `(?, ?, NULL, ${DATED_COLUMNS.map(() => '?').join(', ')}, ?, ?)`)
        .join(', ')}`,
      employees.flatMap((e) => [
        e.id,
        day(e.joined_date),
        ...values(e),
        JSON.stringify(salaries.get(Number(e.id)) ?? []),
        changeOf.get(Number(e.id)),
      ]),
    );
  }
}
