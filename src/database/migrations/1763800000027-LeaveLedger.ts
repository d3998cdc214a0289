import { ledgerTakenDays } from '../../leave/leave-days';
import { MigrationInterface, QueryRunner, Table, TableColumn, TableColumnOptions, TableForeignKey, TableIndex } from 'typeorm';

const id: TableColumnOptions = {
  name: 'id',
  type: 'integer',
  isPrimary: true,
  isGenerated: true,
  generationStrategy: 'increment',
};
const days = (name: string, nullable = false, precision = 6): TableColumnOptions => ({
  name,
  type: 'decimal',
  precision,
  scale: 2,
  isNullable: nullable,
});
const fk = (table: string, column: string, ref: string, onDelete: 'CASCADE' | 'RESTRICT') =>
  new TableForeignKey({
    name: `fk_${table}_${column}`,
    columnNames: [column],
    referencedTableName: ref,
    referencedColumnNames: ['id'],
    onDelete,
  });

/**
 * The leave ledger (issue 31): policies, their assignments, and the append-only ledger. Existing
 * data moves in without changing a balance: a leave type's default days are its fallback policy
 * (fixed_per_period, for whoever no assignment covers), each entitlement becomes a
 * fixed_per_period policy assigned to its employee for its period (nothing carries over, as
 * before), and each approved leave day a `taken` entry. The accruals are then written by the accrual job (balances count them before).
 */
export class LeaveLedger1763800000027 implements MigrationInterface {
  name = 'LeaveLedger1763800000027';

  async up(q: QueryRunner): Promise<void> {
    const mysql = q.connection.options.type === 'mysql';
    await q.createTable(
      new Table({
        name: 'leave_policies',
        columns: [
          id,
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'leave_type_id', type: 'integer' },
          { name: 'accrual', type: 'varchar', length: '20' },
          days('amount'),
          { name: 'prorate_joiners', type: 'boolean', default: false },
          { name: 'waiting_days', type: 'integer', default: 0 },
          days('max_balance', true),
          days('carry_over_max', true),
          { name: 'carry_over_expiry_months', type: 'integer', isNullable: true },
          { name: 'allow_negative', type: 'boolean', default: false },
          { name: 'encashable', type: 'boolean', default: false },
          days('encashment_max', true),
        ],
        indices: [
          new TableIndex({ name: 'uq_leave_policies_name', columnNames: ['name'], isUnique: true }),
          new TableIndex({ name: 'ix_leave_policies_type', columnNames: ['leave_type_id'] }),
        ],
        foreignKeys: [fk('leave_policies', 'leave_type_id', 'leave_types', 'RESTRICT')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'leave_policy_assignments',
        columns: [
          id,
          { name: 'policy_id', type: 'integer' },
          { name: 'employee_id', type: 'integer', isNullable: true },
          { name: 'department_id', type: 'integer', isNullable: true },
          { name: 'employment_status_id', type: 'integer', isNullable: true },
          { name: 'pay_grade_id', type: 'integer', isNullable: true },
          { name: 'valid_from', type: 'date' },
          { name: 'valid_to', type: 'date', isNullable: true },
        ],
        indices: [
          new TableIndex({ name: 'ix_leave_policy_assignments_policy', columnNames: ['policy_id'] }),
          new TableIndex({ name: 'ix_leave_policy_assignments_employee', columnNames: ['employee_id'] }),
          new TableIndex({ name: 'ix_leave_policy_assignments_department', columnNames: ['department_id'] }),
          new TableIndex({ name: 'ix_leave_policy_assignments_status', columnNames: ['employment_status_id'] }),
          new TableIndex({ name: 'ix_leave_policy_assignments_grade', columnNames: ['pay_grade_id'] }),
        ],
        foreignKeys: [
          fk('leave_policy_assignments', 'policy_id', 'leave_policies', 'RESTRICT'),
          fk('leave_policy_assignments', 'employee_id', 'employees', 'CASCADE'),
          fk('leave_policy_assignments', 'department_id', 'departments', 'CASCADE'),
          fk('leave_policy_assignments', 'employment_status_id', 'employment_statuses', 'CASCADE'),
          fk('leave_policy_assignments', 'pay_grade_id', 'pay_grades', 'CASCADE'),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'leave_ledger',
        columns: [
          id,
          { name: 'employee_id', type: 'integer' },
          { name: 'leave_type_id', type: 'integer' },
          { name: 'date', type: 'date' },
          { name: 'kind', type: 'varchar', length: '12' },
          days('days', false, 8),
          { name: 'source', type: 'varchar', length: '10' },
          { name: 'source_id', type: 'integer', isNullable: true },
          { name: 'created_by', type: 'integer', isNullable: true },
          { name: 'note', type: 'varchar', length: '500', isNullable: true },
          { name: 'entry_key', type: 'varchar', length: '60', isNullable: true },
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
        ],
        indices: [
          new TableIndex({ name: 'ix_leave_ledger_employee_type_date', columnNames: ['employee_id', 'leave_type_id', 'date'] }),
          new TableIndex({ name: 'uq_leave_ledger_employee_key', columnNames: ['employee_id', 'entry_key'], isUnique: true }),
          new TableIndex({ name: 'ix_leave_ledger_type_date', columnNames: ['leave_type_id', 'date'] }),
        ],
        foreignKeys: [
          fk('leave_ledger', 'employee_id', 'employees', 'CASCADE'),
          fk('leave_ledger', 'leave_type_id', 'leave_types', 'RESTRICT'),
        ],
      }),
    );
    await q.addColumn('leave_entitlements', new TableColumn({ name: 'assignment_id', type: 'integer', isNullable: true }));

    // A type's default days stay its fallback policy (the accrual engine's fallbackPolicy), which needs no row.
    const types = (await q.query('SELECT id, name, allow_negative FROM leave_types ORDER BY id')) as Array<{
      id: unknown;
      name: string;
      allow_negative: unknown;
    }>;
    const policy = async (name: string, type: { id: unknown; allow_negative: unknown }, amount: number) => {
      await q.query(
        `INSERT INTO leave_policies (name, leave_type_id, accrual, amount, prorate_joiners, waiting_days, carry_over_max, allow_negative, encashable)
         VALUES (?, ?, 'fixed_per_period', ?, ?, 0, 0, ?, ?)`,
        [name, type.id, amount, false, Boolean(Number(type.allow_negative)), false],
      );
      const [{ id: policyId }] = (await q.query('SELECT id FROM leave_policies WHERE name = ?', [name])) as Array<{
        id: unknown;
      }>;
      return Number(policyId);
    };
    // Each entitlement: a policy of its days, assigned to its employee for its period.
    const kinds = (await q.query(
      'SELECT DISTINCT leave_type_id, days FROM leave_entitlements ORDER BY leave_type_id, days',
    )) as Array<{ leave_type_id: unknown; days: unknown }>;
    for (const k of kinds) {
      const t = types.find((x) => Number(x.id) === Number(k.leave_type_id))!;
      const policyId = await policy(`${t.name}: ${Number(k.days)} days (entitlement)`.slice(0, 100), t, Number(k.days));
      await q.query(
        `INSERT INTO leave_policy_assignments (policy_id, employee_id, valid_from, valid_to)
         SELECT ?, x.employee_id, p.date_start, p.date_end FROM leave_entitlements x JOIN leave_periods p ON p.id = x.leave_period_id
         WHERE x.leave_type_id = ? AND x.days = ?`,
        [policyId, k.leave_type_id, k.days],
      );
      await q.query(
        `UPDATE leave_entitlements SET assignment_id = (SELECT a.id FROM leave_policy_assignments a JOIN leave_periods p ON p.date_start = a.valid_from
           WHERE a.policy_id = ? AND a.employee_id = leave_entitlements.employee_id AND p.id = leave_entitlements.leave_period_id)
         WHERE leave_type_id = ? AND days = ?`,
        [policyId, k.leave_type_id, k.days],
      );
    }
    // Each approved leave day: a taken entry.
    await ledgerTakenDays((sql, params) => q.query(sql, params), mysql);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('leave_entitlements', 'assignment_id');
    await q.dropTable('leave_ledger');
    await q.dropTable('leave_policy_assignments');
    await q.dropTable('leave_policies');
  }
}
