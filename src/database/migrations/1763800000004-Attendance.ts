import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

/** Attendance records: in/out times in UTC, the worked seconds computed at write time. */
export class Attendance1763800000004 implements MigrationInterface {
  name = 'Attendance1763800000004';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'attendance',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'employee_id', type: 'integer' },
          { name: 'in_time', type: 'datetime' },
          { name: 'out_time', type: 'datetime', isNullable: true },
          { name: 'duration_seconds', type: 'integer', isNullable: true },
          { name: 'note', type: 'varchar', length: '500', isNullable: true },
          { name: 'work_from_home', type: 'boolean', default: false },
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
          { name: 'updated_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
        ],
        indices: [
          // One employee's records by time (lists, overlap checks, summaries), and the company's by time (insights).
          new TableIndex({ name: 'ix_attendance_employee_in_time', columnNames: ['employee_id', 'in_time'] }),
          new TableIndex({ name: 'ix_attendance_in_time', columnNames: ['in_time'] }),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_attendance_employee_id',
            columnNames: ['employee_id'],
            referencedTableName: 'employees',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('attendance');
  }
}
