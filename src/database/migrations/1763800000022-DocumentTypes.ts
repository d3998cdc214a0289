import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/** Employee document types (issue 28). */
export class DocumentTypes1763800000022 implements MigrationInterface {
  name = 'DocumentTypes1763800000022';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'document_types',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'expires', type: 'boolean', default: false },
          { name: 'notify_days_before', type: 'text' },
          { name: 'visible_to_employee', type: 'boolean', default: true },
          { name: 'visible_to_manager', type: 'boolean', default: false },
          { name: 'employee_may_upload', type: 'boolean', default: false },
        ],
        indices: [new TableIndex({ name: 'uq_document_types_name', columnNames: ['name'], isUnique: true })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('document_types');
  }
}
