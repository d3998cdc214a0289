import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

/** Projects and time entries. */
export class Timesheets1763800000006 implements MigrationInterface {
  name = 'Timesheets1763800000006';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'projects',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'client', type: 'varchar', length: '100', isNullable: true },
        ],
        indices: [new TableIndex({ name: 'uq_projects_name', columnNames: ['name'], isUnique: true })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'time_entries',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'employee_id', type: 'integer' },
          { name: 'project_id', type: 'integer', isNullable: true },
          { name: 'date', type: 'date' },
          { name: 'start_time', type: 'varchar', length: '5' },
          { name: 'end_time', type: 'varchar', length: '5' },
          { name: 'minutes', type: 'integer' },
          { name: 'details', type: 'varchar', length: '500', isNullable: true },
          { name: 'status', type: 'varchar', length: '10' },
          { name: 'decided_by', type: 'integer', isNullable: true },
          { name: 'decided_at', type: 'datetime', isNullable: true },
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
        ],
        indices: [
          new TableIndex({ name: 'ix_time_entries_employee_date', columnNames: ['employee_id', 'date'] }),
          new TableIndex({ name: 'ix_time_entries_date', columnNames: ['date'] }),
          new TableIndex({ name: 'ix_time_entries_project', columnNames: ['project_id'] }),
          new TableIndex({ name: 'ix_time_entries_status', columnNames: ['status'] }),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_time_entries_employee_id',
            columnNames: ['employee_id'],
            referencedTableName: 'employees',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
          new TableForeignKey({
            name: 'fk_time_entries_project_id',
            columnNames: ['project_id'],
            referencedTableName: 'projects',
            referencedColumnNames: ['id'],
            onDelete: 'RESTRICT',
          }),
          new TableForeignKey({
            name: 'fk_time_entries_decided_by',
            columnNames: ['decided_by'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'SET NULL',
          }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('time_entries');
    await q.dropTable('projects');
  }
}
