import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * Issue 68 (docs/api/expenses.md), its first part: expense categories (a journal account, a ceiling
 * per item, whether a receipt is required) and exchange rates by currency and day.
 */
export class ExpenseSetup1763800000055 implements MigrationInterface {
  name = 'ExpenseSetup1763800000055';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'expense_categories',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'account', type: 'varchar', length: '40' },
          { name: 'max_amount', type: 'decimal', precision: 14, scale: 2, isNullable: true },
          { name: 'requires_receipt', type: 'boolean', default: false },
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
          { name: 'updated_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
        ],
        indices: [new TableIndex({ name: 'uq_expense_categories_name', columnNames: ['name'], isUnique: true })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'exchange_rates',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'currency', type: 'varchar', length: '3' },
          { name: 'date', type: 'date' },
          { name: 'rate', type: 'decimal', precision: 24, scale: 10 },
        ],
        indices: [new TableIndex({ name: 'uq_exchange_rates_day', columnNames: ['currency', 'date'], isUnique: true })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('exchange_rates');
    await q.dropTable('expense_categories');
  }
}
