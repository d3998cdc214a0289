import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

const MONEY = { type: 'decimal', precision: 18, scale: 4 } as const;

const fk = (table: string, column: string, referenced: string, onDelete: 'CASCADE' | 'RESTRICT' | 'SET NULL') =>
  new TableForeignKey({
    name: `fk_${table}_${column}`,
    columnNames: [column],
    referencedTableName: referenced,
    referencedColumnNames: ['id'],
    onDelete,
  });

/**
 * Issue 68 (docs/api/expenses.md), its second part: expense claims and their items, each item's
 * rate and converted amount kept, its receipt a document of the employee; the document type the
 * receipts are kept as (`code` 'receipt', the service's own, like 'payslip').
 */
export class ExpenseClaims1763800000056 implements MigrationInterface {
  name = 'ExpenseClaims1763800000056';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'expense_claims',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'employee_id', type: 'integer' },
          { name: 'title', type: 'varchar', length: '200' },
          { name: 'currency', type: 'varchar', length: '3' },
          { name: 'status', type: 'varchar', length: '10' },
          { name: 'total', ...MONEY },
          { name: 'submitted_at', type: 'datetime', isNullable: true },
          { name: 'decided_at', type: 'datetime', isNullable: true },
          { name: 'approved_on', type: 'date', isNullable: true },
          { name: 'paid_in', type: 'integer', isNullable: true },
          { name: 'paid_reference', type: 'varchar', length: '140', isNullable: true },
          { name: 'paid_at', type: 'datetime', isNullable: true },
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
          { name: 'updated_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
        ],
        indices: [
          new TableIndex({ name: 'ix_expense_claims_employee', columnNames: ['employee_id', 'id'] }),
          new TableIndex({ name: 'ix_expense_claims_payable', columnNames: ['status', 'approved_on'] }),
          new TableIndex({ name: 'ix_expense_claims_paid_in', columnNames: ['paid_in'] }),
        ],
        foreignKeys: [fk('expense_claims', 'employee_id', 'employees', 'CASCADE')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'expense_items',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'claim_id', type: 'integer' },
          { name: 'position', type: 'integer' },
          { name: 'category_id', type: 'integer' },
          { name: 'date', type: 'date' },
          { name: 'description', type: 'varchar', length: '500' },
          { name: 'amount', ...MONEY },
          { name: 'currency', type: 'varchar', length: '3' },
          { name: 'rate', type: 'decimal', precision: 24, scale: 10 },
          { name: 'amount_converted', ...MONEY },
          { name: 'receipt_document_id', type: 'integer', isNullable: true },
        ],
        indices: [
          new TableIndex({ name: 'ix_expense_items_claim', columnNames: ['claim_id', 'position'] }),
          new TableIndex({ name: 'ix_expense_items_category', columnNames: ['category_id'] }),
        ],
        foreignKeys: [
          fk('expense_items', 'claim_id', 'expense_claims', 'CASCADE'),
          fk('expense_items', 'category_id', 'expense_categories', 'RESTRICT'),
          fk('expense_items', 'receipt_document_id', 'documents', 'SET NULL'),
        ],
      }),
    );
    // An Admin's own type named Receipt becomes the service's; else the type is made.
    await q.query(`UPDATE document_types SET code = 'receipt' WHERE name = 'Receipt' AND code IS NULL`);
    await q.query(
      `INSERT INTO document_types (name, expires, notify_days_before, visible_to_employee, visible_to_manager, employee_may_upload, code)
       SELECT 'Receipt', 0, '[]', 1, 0, 0, 'receipt' FROM (SELECT 1 AS one) seed
       WHERE NOT EXISTS (SELECT 1 FROM document_types WHERE code = 'receipt')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('expense_items');
    await q.dropTable('expense_claims');
    // The receipts stay documents: their type becomes an Admin's (up takes it back by its name).
    await q.query(`UPDATE document_types SET code = NULL WHERE code = 'receipt'`);
  }
}
