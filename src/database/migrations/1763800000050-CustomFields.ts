import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * Issue 66 (docs/api/custom-fields.md): the definitions of custom fields. A field is a row, never
 * a column: defining one changes no schema. `field_key` is unique (a key names the values in every
 * surface); `visible_to` keeps its audiences as ",Admin,self," so that one is found by LIKE.
 */
export class CustomFields1763800000050 implements MigrationInterface {
  name = 'CustomFields1763800000050';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'custom_fields',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'field_key', type: 'varchar', length: '40' },
          { name: 'label', type: 'varchar', length: '100' },
          { name: 'type', type: 'varchar', length: '20' },
          { name: 'options', type: 'text', isNullable: true },
          { name: 'required', type: 'boolean', default: false },
          { name: 'is_unique', type: 'boolean', default: false },
          { name: 'dated', type: 'boolean', default: false },
          { name: 'pii', type: 'boolean', default: false },
          { name: 'visible_to', type: 'varchar', length: '100' },
          { name: 'editable_by', type: 'varchar', length: '10', default: "'admin'" },
          { name: 'in_list', type: 'boolean', default: false },
          { name: 'position', type: 'integer', default: 0 },
          { name: 'description', type: 'varchar', length: '1000', isNullable: true },
        ],
        indices: [new TableIndex({ name: 'uq_custom_fields_key', columnNames: ['field_key'], isUnique: true })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('custom_fields');
  }
}
