import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * Issue 69 (docs/api/privacy.md), its second part: subject-access exports (a ZIP kept 7 days) and
 * retention policies (one per category of personal data).
 */
export class PrivacyExportsRetention1763800000058 implements MigrationInterface {
  name = 'PrivacyExportsRetention1763800000058';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'personal_data_exports',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'employee_id', type: 'integer' },
          { name: 'requested_by', type: 'integer', isNullable: true },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'file_key', type: 'varchar', length: '64', isNullable: true },
          { name: 'size', type: 'integer', isNullable: true },
          { name: 'error', type: 'varchar', length: '500', isNullable: true },
          { name: 'restarts', type: 'integer', default: 0 },
          { name: 'created_at', type: 'datetime' },
          { name: 'updated_at', type: 'datetime' },
          { name: 'finished_at', type: 'datetime', isNullable: true },
          { name: 'expires_at', type: 'datetime' },
        ],
      }),
    );
    await q.createIndex(
      'personal_data_exports',
      new TableIndex({ name: 'ix_personal_data_exports_employee', columnNames: ['employee_id', 'status'] }),
    );
    await q.createIndex(
      'personal_data_exports',
      new TableIndex({ name: 'ix_personal_data_exports_expiry', columnNames: ['status', 'expires_at'] }),
    );
    await q.createTable(
      new Table({
        name: 'retention_policies',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'category', type: 'varchar', length: '30' },
          { name: 'keep_years', type: 'integer' },
          { name: 'action', type: 'varchar', length: '10' },
          { name: 'updated_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
        ],
        indices: [new TableIndex({ name: 'uq_retention_policies_category', columnNames: ['category'], isUnique: true })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('retention_policies');
    await q.dropTable('personal_data_exports');
  }
}
