import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * The employee list's common filter + sort pairs read in index order, so a page stops after its
 * 50 rows instead of sorting every match: active (or terminated) employees by last name or by
 * joined date, a department's employees by last name. The other pairs use the filter's index
 * (status, department, supervisor, ...) or the sort's, whichever the planner finds cheaper.
 */
const INDEXES = [
  ['status', 'last_name', 'id'],
  ['status', 'joined_date', 'id'],
  ['department_id', 'last_name', 'id'],
];
const name = (columns: string[]) => `ix_employees_${columns.join('_')}`;

export class EmployeeListIndexes1763800000016 implements MigrationInterface {
  name = 'EmployeeListIndexes1763800000016';

  async up(q: QueryRunner): Promise<void> {
    for (const columns of INDEXES)
      await q.createIndex('employees', new TableIndex({ name: name(columns), columnNames: columns }));
  }

  async down(q: QueryRunner): Promise<void> {
    for (const columns of INDEXES) await q.dropIndex('employees', name(columns));
  }
}
