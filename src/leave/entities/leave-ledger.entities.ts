import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { Accrual, LedgerKind, LedgerSource } from '../engine/accrual-engine';

/** DECIMAL day counts as JSON numbers (MariaDB returns "2.50", SQLite 2.5); null stays null. */
const DAYS = { to: (v: number | null | undefined) => v, from: (v: string | number | null) => (v === null ? null : Number(v)) };

/** How an employee earns a leave type (issue 31): see the accrual engine for what each field does. */
@Entity('leave_policies')
export class LeavePolicy {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ type: 'varchar', length: 100 }) name: string;
  @Column({ name: 'leave_type_id', type: 'integer' }) leaveTypeId: number;
  @Column({ type: 'varchar', length: 20 }) accrual: Accrual;
  @Column({ type: 'decimal', precision: 6, scale: 2, transformer: DAYS }) amount: number;
  @Column({ name: 'prorate_joiners', type: 'boolean', default: false }) prorateJoiners: boolean;
  @Column({ name: 'waiting_days', type: 'integer', default: 0 }) waitingDays: number;
  @Column({ name: 'max_balance', type: 'decimal', precision: 6, scale: 2, nullable: true, transformer: DAYS })
  maxBalance: number | null;
  @Column({ name: 'carry_over_max', type: 'decimal', precision: 6, scale: 2, nullable: true, transformer: DAYS })
  carryOverMax: number | null;
  @Column({ name: 'carry_over_expiry_months', type: 'integer', nullable: true }) carryOverExpiryMonths: number | null;
  @Column({ name: 'allow_negative', type: 'boolean', default: false }) allowNegative: boolean;
  @Column({ type: 'boolean', default: false }) encashable: boolean;
  @Column({ name: 'encashment_max', type: 'decimal', precision: 6, scale: 2, nullable: true, transformer: DAYS })
  encashmentMax: number | null;
}

/** Who a policy applies to, when: one employee, a department with its children, a pay grade, an employment status, or (none set) everyone. */
@Entity('leave_policy_assignments')
export class LeavePolicyAssignment {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'policy_id', type: 'integer' }) policyId: number;
  @Column({ name: 'employee_id', type: 'integer', nullable: true }) employeeId: number | null;
  @Column({ name: 'department_id', type: 'integer', nullable: true }) departmentId: number | null;
  @Column({ name: 'employment_status_id', type: 'integer', nullable: true }) employmentStatusId: number | null;
  @Column({ name: 'pay_grade_id', type: 'integer', nullable: true }) payGradeId: number | null;
  @Column({ name: 'valid_from', type: 'date' }) validFrom: string;
  @Column({ name: 'valid_to', type: 'date', nullable: true }) validTo: string | null;
}

/**
 * One change of an employee's balance of a leave type (issue 31). Append-only: nothing updates or
 * deletes an entry, a correction is a new one. `entry_key` makes the entries written by jobs and
 * approvals single (unique per employee): `take:<request>:<date>`, `rev:<request>:<date>`, and
 * the derived `acc:`, `cin:`, `exp:` bases with a `#n` sequence.
 */
@Entity('leave_ledger')
export class LeaveLedgerEntry {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'employee_id', type: 'integer' }) employeeId: number;
  @Column({ name: 'leave_type_id', type: 'integer' }) leaveTypeId: number;
  @Column({ type: 'date' }) date: string;
  @Column({ type: 'varchar', length: 12 }) kind: LedgerKind;
  @Column({ type: 'decimal', precision: 8, scale: 2, transformer: DAYS }) days: number;
  @Column({ type: 'varchar', length: 10 }) source: LedgerSource;
  @Column({ name: 'source_id', type: 'integer', nullable: true }) sourceId: number | null;
  @Column({ name: 'created_by', type: 'integer', nullable: true }) createdBy: number | null;
  @Column({ type: 'varchar', length: 500, nullable: true }) note: string | null;
  @Column({ name: 'entry_key', type: 'varchar', length: 60, nullable: true }) entryKey: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'datetime' }) createdAt: Date;
}

export const LEAVE_LEDGER_ENTITIES = [LeavePolicy, LeavePolicyAssignment, LeaveLedgerEntry];
