import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

const id = { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' as const };
const BATCH = 500;

/**
 * Issue 45: approval chains (docs/api/decisions.md §21). Policies, delegations, each request's chain with the
 * inbox's rows and the decisions; the department head an approver role names. Requests pending
 * now keep the single step they were made under: any of the supervisor and approver1..3 (the
 * Admins when the employee has none).
 */
export class ApprovalChains1763800000039 implements MigrationInterface {
  name = 'ApprovalChains1763800000039';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'approval_policies',
        columns: [
          id,
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'applies_to', type: 'varchar', length: '10' },
          { name: 'conditions', type: 'text' },
          { name: 'steps', type: 'text' },
          { name: 'escalate_after_days', type: 'integer', isNullable: true },
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
          { name: 'updated_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'approval_delegations',
        columns: [
          id,
          { name: 'delegator_id', type: 'integer' },
          { name: 'delegate_id', type: 'integer' },
          { name: 'date_start', type: 'date' },
          { name: 'date_end', type: 'date' },
        ],
        indices: [new TableIndex({ name: 'ix_approval_delegations_delegator', columnNames: ['delegator_id', 'date_start'] })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'approvals',
        columns: [
          id,
          { name: 'kind', type: 'varchar', length: '10' },
          { name: 'request_id', type: 'integer' },
          { name: 'employee_id', type: 'integer' },
          { name: 'policy_id', type: 'integer', isNullable: true },
          { name: 'status', type: 'varchar', length: '10' },
          { name: 'current_step', type: 'integer' },
          { name: 'steps', type: 'text' },
          { name: 'summary', type: 'varchar', length: '200' },
          { name: 'requested_at', type: 'datetime' },
          { name: 'escalate_at', type: 'datetime', isNullable: true },
          { name: 'escalate_after_days', type: 'integer', isNullable: true },
        ],
        indices: [
          new TableIndex({ name: 'uq_approvals_request', columnNames: ['kind', 'request_id'], isUnique: true }),
          new TableIndex({ name: 'ix_approvals_escalation', columnNames: ['status', 'escalate_at'] }),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'approval_approvers',
        columns: [
          id,
          { name: 'approval_id', type: 'integer' },
          { name: 'step', type: 'integer' },
          { name: 'employee_id', type: 'integer', isNullable: true },
        ],
        indices: [
          new TableIndex({ name: 'ix_approval_approvers_employee', columnNames: ['employee_id', 'approval_id'] }),
          new TableIndex({ name: 'ix_approval_approvers_approval', columnNames: ['approval_id'] }),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'approval_decisions',
        columns: [
          id,
          { name: 'approval_id', type: 'integer' },
          { name: 'step', type: 'integer' },
          { name: 'user_id', type: 'integer' },
          { name: 'employee_id', type: 'integer', isNullable: true },
          { name: 'decision', type: 'varchar', length: '10' },
          { name: 'as_admin', type: 'boolean', default: false },
          { name: 'comment', type: 'varchar', length: '500', isNullable: true },
          { name: 'at', type: 'datetime' },
        ],
        indices: [
          new TableIndex({ name: 'uq_approval_decisions_user', columnNames: ['approval_id', 'user_id'], isUnique: true }),
        ],
      }),
    );
    await q.query('ALTER TABLE departments ADD COLUMN head_id integer NULL');
    await this.chainsOfPending(q);
  }

  /** One default step for every pending leave request and submitted time entry, in batches. */
  private async chainsOfPending(q: QueryRunner): Promise<void> {
    const sources = [
      {
        kind: 'leave',
        sql:
          "SELECT r.id, r.employee_id, r.created_at, r.date_start, r.date_end, r.days, t.name AS label, e.supervisor_id, e.approver1_id, e.approver2_id, e.approver3_id FROM leave_requests r JOIN employees e ON e.id = r.employee_id LEFT JOIN leave_types t ON t.id = r.leave_type_id WHERE r.status = 'Pending' AND r.id > ? ORDER BY r.id LIMIT " +
          BATCH,
        summary: (r: Row) =>
          `${typeof r.label === 'string' ? r.label : 'Leave'} ${day(r.date_start)}${day(r.date_end) !== day(r.date_start) ? ` to ${day(r.date_end)}` : ''} (${Number(r.days)} day${Number(r.days) === 1 ? '' : 's'})`,
      },
      {
        kind: 'time',
        sql:
          "SELECT r.id, r.employee_id, r.updated_at AS created_at, r.date, r.start_time, r.end_time, e.supervisor_id, e.approver1_id, e.approver2_id, e.approver3_id FROM time_entries r JOIN employees e ON e.id = r.employee_id WHERE r.status = 'Submitted' AND r.id > ? ORDER BY r.id LIMIT " +
          BATCH,
        summary: (r: Row) => `Time entry ${day(r.date)} ${String(r.start_time)}–${String(r.end_time)}`,
      },
    ];
    for (const source of sources) {
      let after = 0;
      for (;;) {
        const rows = (await q.query(source.sql, [after])) as Row[];
        if (!rows.length) break;
        after = Number(rows[rows.length - 1].id);
        for (const r of rows) {
          const approvers = [
            ...new Set(
              [r.supervisor_id, r.approver1_id, r.approver2_id, r.approver3_id]
                .filter((x) => x !== null && x !== undefined)
                .map(Number)
                .filter((x) => x !== Number(r.employee_id)),
            ),
          ];
          const step = { mode: 'any', approvers, admins: !approvers.length, substitutions: [], escalated: [], opened_at: null };
          await q.query(
            'INSERT INTO approvals (kind, request_id, employee_id, policy_id, status, current_step, steps, summary, requested_at) VALUES (?, ?, ?, NULL, ?, 1, ?, ?, ?)',
            [source.kind, r.id, r.employee_id, 'Pending', JSON.stringify([step]), source.summary(r).slice(0, 200), r.created_at],
          );
          const [{ approval }] = (await q.query('SELECT id AS approval FROM approvals WHERE kind = ? AND request_id = ?', [
            source.kind,
            r.id,
          ])) as Array<{ approval: number }>;
          const who: Array<number | null> = approvers.length ? approvers : [null];
          await q.query(
            `INSERT INTO approval_approvers (approval_id, step, employee_id) VALUES ${who.map(() => '(?, 1, ?)').join(', ')}`,
            who.flatMap((e) => [approval, e]),
          );
        }
      }
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE departments DROP COLUMN head_id');
    for (const t of ['approval_decisions', 'approval_approvers', 'approvals', 'approval_delegations', 'approval_policies'])
      await q.dropTable(t);
  }
}

type Row = Record<string, unknown>;

/** A date column as YYYY-MM-DD (MariaDB's driver may give a Date). */
function day(value: unknown): string {
  return value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10);
}
