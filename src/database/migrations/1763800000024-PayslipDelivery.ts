import { MigrationInterface, QueryRunner, Table, TableColumn, TableForeignKey, TableIndex } from 'typeorm';

/**
 * Payslip PDFs and their delivery (issue 29): the document type the PDFs are kept as (`code`
 * 'payslip', seeded; a type with a code is the service's own), each payslip's document and delivery
 * status, and one delivery record per payslip and send request, written before the SMTP call.
 */
export class PayslipDelivery1763800000024 implements MigrationInterface {
  name = 'PayslipDelivery1763800000024';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('document_types', new TableColumn({ name: 'code', type: 'varchar', length: '30', isNullable: true }));
    await q.createIndex(
      'document_types',
      new TableIndex({ name: 'uq_document_types_code', columnNames: ['code'], isUnique: true }),
    );
    // An Admin's own type named Payslip becomes the service's; else the type is made.
    await q.query(`UPDATE document_types SET code = 'payslip' WHERE name = 'Payslip'`);
    await q.query(
      `INSERT INTO document_types (name, expires, notify_days_before, visible_to_employee, visible_to_manager, employee_may_upload, code)
       SELECT 'Payslip', 0, '[]', 1, 0, 0, 'payslip' FROM (SELECT 1 AS one) seed
       WHERE NOT EXISTS (SELECT 1 FROM document_types WHERE code = 'payslip')`,
    );

    await q.addColumns('payslips', [
      new TableColumn({ name: 'document_id', type: 'integer', isNullable: true }),
      new TableColumn({ name: 'delivery_status', type: 'varchar', length: '16', default: "'not_sent'" }),
      new TableColumn({ name: 'delivered_at', type: 'datetime', isNullable: true }),
      new TableColumn({ name: 'delivery_error', type: 'varchar', length: '500', isNullable: true }),
    ]);
    await q.createIndex(
      'payslips',
      new TableIndex({ name: 'ix_payslips_payroll_delivery', columnNames: ['payroll_id', 'delivery_status'] }),
    );
    await q.createForeignKey(
      'payslips',
      new TableForeignKey({
        name: 'fk_payslips_document_id',
        columnNames: ['document_id'],
        referencedTableName: 'documents',
        referencedColumnNames: ['id'],
        onDelete: 'SET NULL',
      }),
    );

    await q.createTable(
      new Table({
        name: 'payslip_deliveries',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'payslip_id', type: 'integer' },
          { name: 'request_id', type: 'varchar', length: '64' },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'address', type: 'varchar', length: '255' },
          { name: 'send_after', type: 'datetime', isNullable: true },
          { name: 'error', type: 'varchar', length: '500', isNullable: true },
          { name: 'requested_by', type: 'integer', isNullable: true },
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
          { name: 'started_at', type: 'datetime', isNullable: true },
          { name: 'finished_at', type: 'datetime', isNullable: true },
        ],
        indices: [
          // One delivery per payslip and request, however often the request is retried.
          new TableIndex({ name: 'uq_payslip_deliveries_request', columnNames: ['payslip_id', 'request_id'], isUnique: true }),
          // The scheduled job's "queued and due" (a few queued among every delivery ever made).
          new TableIndex({ name: 'ix_payslip_deliveries_due', columnNames: ['status', 'send_after'] }),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_payslip_deliveries_payslip',
            columnNames: ['payslip_id'],
            referencedTableName: 'payslips',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('payslip_deliveries');
    await q.dropForeignKey('payslips', 'fk_payslips_document_id');
    await q.dropIndex('payslips', 'ix_payslips_payroll_delivery');
    await q.dropColumns('payslips', ['document_id', 'delivery_status', 'delivered_at', 'delivery_error']);
    await q.query(
      `DELETE FROM document_types WHERE code = 'payslip' AND NOT EXISTS (SELECT 1 FROM documents d WHERE d.document_type_id = document_types.id)`,
    );
    await q.dropIndex('document_types', 'uq_document_types_code');
    await q.dropColumn('document_types', 'code');
  }
}
