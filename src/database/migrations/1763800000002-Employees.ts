import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex, TableColumnOptions } from 'typeorm';

const id: TableColumnOptions = {
  name: 'id',
  type: 'integer',
  isPrimary: true,
  isGenerated: true,
  generationStrategy: 'increment',
};
const name: TableColumnOptions = { name: 'name', type: 'varchar', length: '100' };
const timestamps: TableColumnOptions[] = [
  { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
  { name: 'updated_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
];

/** Reference tables that are just a unique name. */
export const NAMED_REFERENCE_TABLES = [
  'job_titles',
  'employment_statuses',
  'nationalities',
  'languages',
  'skills',
  'certifications',
  'education_levels',
] as const;

function fk(table: string, column: string, refTable: string, onDelete: 'CASCADE' | 'RESTRICT' | 'SET NULL'): TableForeignKey {
  return new TableForeignKey({
    name: `fk_${table}_${column}`,
    columnNames: [column],
    referencedTableName: refTable,
    referencedColumnNames: ['id'],
    onDelete,
  });
}

function ix(table: string, columns: string[], unique = false): TableIndex {
  return new TableIndex({
    name: `${unique ? 'uq' : 'ix'}_${table}_${columns.join('_')}`,
    columnNames: columns,
    isUnique: unique,
  });
}

/** Employees, the reference data they point to, their sub-resources and status messages. */
export class Employees1763800000002 implements MigrationInterface {
  name = 'Employees1763800000002';

  async up(q: QueryRunner): Promise<void> {
    for (const table of NAMED_REFERENCE_TABLES) {
      await q.createTable(new Table({ name: table, columns: [id, name], indices: [ix(table, ['name'], true)] }));
    }
    await q.createTable(
      new Table({
        name: 'departments',
        columns: [id, name, { name: 'parent_id', type: 'integer', isNullable: true }],
        indices: [ix('departments', ['name'], true), ix('departments', ['parent_id'])],
        foreignKeys: [fk('departments', 'parent_id', 'departments', 'RESTRICT')],
      }),
    );
    // Restricted Admin scopes point at departments now that they exist; deleting a department
    // removes it from those scopes (access only ever narrows).
    await q.query('DELETE FROM user_departments WHERE department_id NOT IN (SELECT id FROM departments)');
    await q.createForeignKey('user_departments', fk('user_departments', 'department_id', 'departments', 'CASCADE'));
    await q.createTable(
      new Table({
        name: 'pay_grades',
        columns: [
          id,
          name,
          { name: 'currency', type: 'varchar', length: '3', isNullable: true },
          { name: 'min_salary', type: 'decimal', precision: 14, scale: 2, isNullable: true },
          { name: 'max_salary', type: 'decimal', precision: 14, scale: 2, isNullable: true },
        ],
        indices: [ix('pay_grades', ['name'], true)],
      }),
    );

    const text = (n: string, length = 100): TableColumnOptions => ({
      name: n,
      type: 'varchar',
      length: String(length),
      isNullable: true,
    });
    const date = (n: string, nullable = true): TableColumnOptions => ({ name: n, type: 'date', isNullable: nullable });
    const ref = (n: string): TableColumnOptions => ({ name: n, type: 'integer', isNullable: true });
    await q.createTable(
      new Table({
        name: 'employees',
        columns: [
          id,
          { name: 'employee_id', type: 'varchar', length: '50' },
          { name: 'first_name', type: 'varchar', length: '100' },
          text('middle_name'),
          { name: 'last_name', type: 'varchar', length: '100' },
          text('gender', 10),
          text('marital_status', 30),
          date('birthday'),
          { name: 'joined_date', type: 'date' },
          date('confirmation_date'),
          date('termination_date'),
          ref('nationality_id'),
          text('ssn_num'),
          text('nic_num'),
          text('other_id'),
          text('driving_license'),
          text('address1', 200),
          text('address2', 200),
          text('city'),
          text('country', 2),
          text('province'),
          text('postal_code', 20),
          text('home_phone', 30),
          text('mobile_phone', 30),
          text('work_phone', 30),
          text('work_email', 255),
          text('private_email', 255),
          ref('employment_status_id'),
          ref('job_title_id'),
          ref('pay_grade_id'),
          ref('department_id'),
          ref('supervisor_id'),
          ref('approver1_id'),
          ref('approver2_id'),
          ref('approver3_id'),
          { name: 'status', type: 'varchar', length: '12', default: "'Active'" },
          ...timestamps,
        ],
        indices: [
          ix('employees', ['employee_id'], true),
          ix('employees', ['work_email'], true),
          ix('employees', ['department_id', 'id']),
          ix('employees', ['supervisor_id', 'id']),
          ix('employees', ['job_title_id']),
          ix('employees', ['employment_status_id']),
          ix('employees', ['status', 'id']),
          ix('employees', ['last_name']),
          ix('employees', ['first_name']),
          ix('employees', ['joined_date']),
          ix('employees', ['approver1_id']),
          ix('employees', ['approver2_id']),
          ix('employees', ['approver3_id']),
          ix('employees', ['nationality_id']),
          ix('employees', ['pay_grade_id']),
        ],
        foreignKeys: [
          fk('employees', 'nationality_id', 'nationalities', 'RESTRICT'),
          fk('employees', 'employment_status_id', 'employment_statuses', 'RESTRICT'),
          fk('employees', 'job_title_id', 'job_titles', 'RESTRICT'),
          fk('employees', 'pay_grade_id', 'pay_grades', 'RESTRICT'),
          fk('employees', 'department_id', 'departments', 'RESTRICT'),
          fk('employees', 'supervisor_id', 'employees', 'SET NULL'),
          fk('employees', 'approver1_id', 'employees', 'SET NULL'),
          fk('employees', 'approver2_id', 'employees', 'SET NULL'),
          fk('employees', 'approver3_id', 'employees', 'SET NULL'),
        ],
      }),
    );

    const owned = (table: string, columns: TableColumnOptions[], refs: Array<[string, string]>) =>
      q.createTable(
        new Table({
          name: table,
          columns: [id, { name: 'employee_id', type: 'integer' }, ...columns],
          indices: [ix(table, ['employee_id']), ...refs.map(([c]) => ix(table, [c]))],
          foreignKeys: [fk(table, 'employee_id', 'employees', 'CASCADE'), ...refs.map(([c, t]) => fk(table, c, t, 'RESTRICT'))],
        }),
      );
    await owned('employee_skills', [{ name: 'skill_id', type: 'integer' }, text('details', 500)], [['skill_id', 'skills']]);
    await owned(
      'employee_educations',
      [ref('education_level_id'), { name: 'institute', type: 'varchar', length: '200' }, date('date_start'), date('date_end')],
      [['education_level_id', 'education_levels']],
    );
    await owned(
      'employee_certifications',
      [{ name: 'certification_id', type: 'integer' }, text('institute', 200), date('date_start'), date('date_end')],
      [['certification_id', 'certifications']],
    );
    await owned(
      'employee_languages',
      [
        { name: 'language_id', type: 'integer' },
        text('reading', 30),
        text('speaking', 30),
        text('writing', 30),
        text('understanding', 30),
      ],
      [['language_id', 'languages']],
    );
    await owned(
      'employee_status_messages',
      [
        { name: 'message', type: 'varchar', length: '500' },
        { name: 'created_by', type: 'integer', isNullable: true },
        { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
      ],
      [],
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'employee_status_messages',
      'employee_languages',
      'employee_certifications',
      'employee_educations',
      'employee_skills',
    ]) {
      await q.dropTable(t);
    }
    await q.dropTable('employees');
    await q.dropTable('pay_grades');
    await q.dropForeignKey('user_departments', 'fk_user_departments_department_id');
    await q.dropTable('departments');
    for (const t of [...NAMED_REFERENCE_TABLES].reverse()) await q.dropTable(t);
  }
}
