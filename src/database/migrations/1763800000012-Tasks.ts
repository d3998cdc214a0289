import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

/** Each user's tasks: made by the service from events (at most once per source, source id and user) or by Admins. */
export class Tasks1763800000012 implements MigrationInterface {
  name = 'Tasks1763800000012';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'tasks',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'user_id', type: 'integer' },
          { name: 'title', type: 'varchar', length: '200' },
          { name: 'description', type: 'varchar', length: '2000', isNullable: true },
          { name: 'status', type: 'varchar', length: '10' },
          { name: 'priority', type: 'varchar', length: '10' },
          { name: 'due_date', type: 'date', isNullable: true },
          { name: 'link', type: 'varchar', length: '500', isNullable: true },
          { name: 'source', type: 'varchar', length: '50' },
          { name: 'source_id', type: 'integer', isNullable: true },
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
          { name: 'completed_at', type: 'datetime', isNullable: true },
        ],
        indices: [
          // At most one task per source record and user (NULL source ids, Admins' own tasks, repeat).
          new TableIndex({ name: 'uq_tasks_source_user', columnNames: ['source', 'source_id', 'user_id'], isUnique: true }),
          new TableIndex({ name: 'ix_tasks_user_status', columnNames: ['user_id', 'status', 'id'] }),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_tasks_user_id',
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('tasks');
  }
}
