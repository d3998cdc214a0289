import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

/**
 * Issue 66 (docs/api/custom-fields.md): the values of custom fields, a row per employee and field
 * (and per chosen option of a multiselect, `item`), so that defining a field changes no schema.
 * `value_text` holds the value as the API writes it; `value_key` (text, dates, booleans, options)
 * and `value_number` (integers, decimals, employees) are what filters and sorts read, indexed per
 * field; `unique_key` is set for a unique field only, and the unique index over it decides a
 * duplicate. Values go with their employee and their field (cascades).
 */
export class CustomFieldValues1763800000051 implements MigrationInterface {
  name = 'CustomFieldValues1763800000051';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'custom_field_values',
        columns: [
          { name: 'field_id', type: 'integer', isPrimary: true },
          { name: 'employee_id', type: 'integer', isPrimary: true },
          { name: 'item', type: 'varchar', length: '100', isPrimary: true, default: "''" },
          { name: 'value_text', type: 'text' },
          { name: 'value_key', type: 'varchar', length: '191', isNullable: true },
          { name: 'value_number', type: 'double', isNullable: true },
          { name: 'unique_key', type: 'varchar', length: '64', isNullable: true },
        ],
        indices: [
          new TableIndex({ name: 'idx_cfv_employee', columnNames: ['employee_id'] }),
          new TableIndex({ name: 'idx_cfv_key', columnNames: ['field_id', 'value_key', 'employee_id'] }),
          new TableIndex({ name: 'idx_cfv_number', columnNames: ['field_id', 'value_number', 'employee_id'] }),
          new TableIndex({ name: 'uq_cfv_unique', columnNames: ['field_id', 'unique_key'], isUnique: true }),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_cfv_field',
            columnNames: ['field_id'],
            referencedTableName: 'custom_fields',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
          new TableForeignKey({
            name: 'fk_cfv_employee',
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
    await q.dropTable('custom_field_values');
  }
}
