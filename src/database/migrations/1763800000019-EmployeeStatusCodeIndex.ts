import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * Active (or terminated) employees sorted by employee_id, read in index order like the pairs of
 * migration 16: at 100 000 employees a page took 100-135 ms on both databases (the planner read
 * the status index and sorted 85 % of the table), every other documented filter + sort pair 10-27 ms.
 */
const COLUMNS = ['status', 'employee_id', 'id'];
const NAME = 'ix_employees_status_employee_id_id';

export class EmployeeStatusCodeIndex1763800000019 implements MigrationInterface {
  name = 'EmployeeStatusCodeIndex1763800000019';

  async up(q: QueryRunner): Promise<void> {
    await q.createIndex('employees', new TableIndex({ name: NAME, columnNames: COLUMNS }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('employees', NAME);
  }
}
