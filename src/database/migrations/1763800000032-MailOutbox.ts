import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * Issue 42: one mail outbox. `outgoing_mail` holds every e-mail the service sends (welcome, payslip,
 * notification), in place of `payslip_deliveries` (its rows move over as they are) and of the
 * notification e-mails' own claim. Welcome e-mails still pending and notification e-mails claimed
 * by the jobs of before (whose handlers are gone) are carried over.
 */
export class MailOutbox1763800000032 implements MigrationInterface {
  name = 'MailOutbox1763800000032';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'outgoing_mail',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'purpose', type: 'varchar', length: '20' },
          { name: 'ref', type: 'varchar', length: '80' },
          { name: 'request_id', type: 'varchar', length: '64' },
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'address', type: 'varchar', length: '255', isNullable: true },
          { name: 'document_id', type: 'integer', isNullable: true },
          { name: 'send_after', type: 'datetime', isNullable: true },
          { name: 'error', type: 'varchar', length: '500', isNullable: true },
          { name: 'requested_by', type: 'integer', isNullable: true },
          { name: 'created_at', type: 'datetime' },
          { name: 'started_at', type: 'datetime', isNullable: true },
          { name: 'finished_at', type: 'datetime', isNullable: true },
        ],
        indices: [
          // One e-mail per owner's key and request, however often the request is retried.
          new TableIndex({ name: 'uq_outgoing_mail_owner', columnNames: ['purpose', 'ref', 'request_id'], isUnique: true }),
          // The sweep's "queued and due" (a few queued among every e-mail ever sent).
          new TableIndex({ name: 'ix_outgoing_mail_due', columnNames: ['status', 'send_after'] }),
        ],
      }),
    );
    await q.query(
      `INSERT INTO outgoing_mail (purpose, ref, request_id, status, address, document_id, send_after, error, requested_by, created_at, started_at, finished_at)
       SELECT 'payslip', d.payslip_id, d.request_id, d.status, d.address, s.document_id, d.send_after, d.error, d.requested_by,
              d.created_at, d.started_at, d.finished_at
       FROM payslip_deliveries d JOIN payslips s ON s.id = d.payslip_id ORDER BY d.id`,
    );
    await q.dropTable('payslip_deliveries');
    await q.query(
      `INSERT INTO outgoing_mail (purpose, ref, request_id, status, address, created_at)
       SELECT 'welcome', id, 'migration-32', 'queued', NULL, CURRENT_TIMESTAMP FROM users WHERE welcome_email_status = 'pending'`,
    );
    await q.query(
      `UPDATE notification_emails SET status = 'unknown', error = 'the sending process stopped during the SMTP call: the e-mail may or may not have arrived'
       WHERE status = 'sending'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
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
          new TableIndex({ name: 'uq_payslip_deliveries_request', columnNames: ['payslip_id', 'request_id'], isUnique: true }),
          new TableIndex({ name: 'ix_payslip_deliveries_due', columnNames: ['status', 'send_after'] }),
        ],
        foreignKeys: [
          {
            name: 'fk_payslip_deliveries_payslip',
            columnNames: ['payslip_id'],
            referencedTableName: 'payslips',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
      }),
    );
    await q.query(
      `INSERT INTO payslip_deliveries (payslip_id, request_id, status, address, send_after, error, requested_by, created_at, started_at, finished_at)
       SELECT CAST(m.ref AS UNSIGNED), m.request_id, m.status, m.address, m.send_after, m.error, m.requested_by, m.created_at, m.started_at, m.finished_at
       FROM outgoing_mail m WHERE m.purpose = 'payslip' AND m.address IS NOT NULL
         AND EXISTS (SELECT 1 FROM payslips s WHERE s.id = CAST(m.ref AS UNSIGNED)) ORDER BY m.id`,
    );
    await q.dropTable('outgoing_mail');
  }
}
