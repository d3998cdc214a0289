import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** The tables that keep marks, by their key. */
const MARKED: Array<[string, string]> = [
  ['leave_accrual_runs', 'id'],
  ['leave_liability_days', 'day'],
];

/**
 * Issue 64 item 4: the daily accrual and the leave liability learn which employees changed from the
 * events they subscribe to, no longer from the audit log's rows by resource name. The leave module's
 * outbox subscriber writes `leave_accrual_changes` (an employee, or null: everyone), and the runs and
 * liability days keep how far they read it (`change_mark`, which was `audit_mark`). The marks start
 * over at 0 beside one row for everyone, so the first read after this reads everyone; the
 * subscriber starts where the outbox's sequence is (what came before is in that row); the holes kept
 * of the audit log are dropped with it.
 */
export class AccrualChanges1763800000047 implements MigrationInterface {
  name = 'AccrualChanges1763800000047';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'leave_accrual_changes',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'employee_id', type: 'integer', isNullable: true },
        ],
      }),
    );
    await q.query('INSERT INTO leave_accrual_changes (employee_id) VALUES (NULL)');
    for (const [table, key] of MARKED) {
      await q.renameColumn(table, 'audit_mark', 'change_mark');
      await q.query(`UPDATE ${table} SET change_mark = 0 WHERE change_mark <> -1`);
      const rows = (await q.query(`SELECT ${key} AS "key", holes FROM ${table} WHERE holes IS NOT NULL`)) as Array<{
        key: unknown;
        holes: string;
      }>;
      for (const row of rows) {
        const ledger = (JSON.parse(row.holes) as { ledger?: unknown[] }).ledger ?? [];
        await q.query(`UPDATE ${table} SET holes = ? WHERE ${key} = ?`, [
          ledger.length ? JSON.stringify({ ledger, changes: [] }) : null,
          row.key,
        ]);
      }
    }
    await q.query(
      "INSERT INTO outbox_cursors (subscriber, last_seq, failures) SELECT 'leave-accrual', last_seq, 0 FROM outbox_cursors WHERE subscriber = '$sequence'",
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query("DELETE FROM outbox_cursors WHERE subscriber = 'leave-accrual'");
    for (const [table] of MARKED) {
      await q.renameColumn(table, 'change_mark', 'audit_mark');
      // The audit log is read from its start again, and the holes kept are of the ledger only.
      await q.query(`UPDATE ${table} SET audit_mark = 0 WHERE audit_mark <> -1`);
    }
    await q.dropTable('leave_accrual_changes');
  }
}
