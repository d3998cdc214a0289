import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

/**
 * Issue 67 (docs/api/checklists.md): checklist templates, the checklists a hire, termination,
 * transfer or dated change starts, and their items. A checklist goes with its employee, an item
 * with its checklist (cascades); a template can be deleted while its checklists stay.
 */
export class Checklists1763800000054 implements MigrationInterface {
  name = 'Checklists1763800000054';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'checklist_templates',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'trigger_kind', type: 'varchar', length: '12' },
          { name: 'conditions', type: 'text' },
          { name: 'items', type: 'text' },
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
          { name: 'updated_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'checklists',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'template_id', type: 'integer' },
          { name: 'template_name', type: 'varchar', length: '100' },
          { name: 'employee_id', type: 'integer' },
          { name: 'trigger_kind', type: 'varchar', length: '12' },
          { name: 'origin', type: 'varchar', length: '40' },
          { name: 'effective_date', type: 'date' },
          { name: 'status', type: 'varchar', length: '10' },
          { name: 'cancel_reason', type: 'varchar', length: '200', isNullable: true },
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
          { name: 'completed_at', type: 'datetime', isNullable: true },
        ],
        indices: [
          new TableIndex({ name: 'uq_checklists_origin', columnNames: ['template_id', 'employee_id', 'origin'], isUnique: true }),
          new TableIndex({ name: 'ix_checklists_employee', columnNames: ['employee_id', 'status'] }),
          new TableIndex({ name: 'ix_checklists_status', columnNames: ['status', 'id'] }),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_checklists_employee',
            columnNames: ['employee_id'],
            referencedTableName: 'employees',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'checklist_items',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'checklist_id', type: 'integer' },
          { name: 'position', type: 'integer' },
          { name: 'title', type: 'varchar', length: '200' },
          { name: 'description', type: 'varchar', length: '2000', isNullable: true },
          { name: 'assignee', type: 'varchar', length: '30' },
          { name: 'assignees', type: 'text' },
          { name: 'offset_days', type: 'integer' },
          { name: 'due_date', type: 'date' },
          { name: 'document_type_id', type: 'integer', isNullable: true },
          { name: 'required', type: 'boolean' },
          { name: 'status', type: 'varchar', length: '10' },
          { name: 'cancel_reason', type: 'varchar', length: '200', isNullable: true },
          { name: 'completed_by', type: 'integer', isNullable: true },
          { name: 'completed_at', type: 'datetime', isNullable: true },
          { name: 'reminded_on', type: 'date', isNullable: true },
        ],
        indices: [
          new TableIndex({ name: 'ix_checklist_items_checklist', columnNames: ['checklist_id', 'position'] }),
          new TableIndex({ name: 'ix_checklist_items_due', columnNames: ['status', 'due_date'] }),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_checklist_items_checklist',
            columnNames: ['checklist_id'],
            referencedTableName: 'checklists',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('checklist_items');
    await q.dropTable('checklists');
    await q.dropTable('checklist_templates');
  }
}
