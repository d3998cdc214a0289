import { Column, CreateDateColumn, Entity, PrimaryColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** DECIMAL(6,1) day counts as JSON numbers (MariaDB returns "3.0", SQLite 3). */
const DAYS = { to: (v: number | null | undefined) => v, from: (v: string | number | null) => (v === null ? null : Number(v)) };

export const LEAVE_STATUSES = ['Pending', 'Approved', 'Rejected', 'Cancelled'] as const;
export type LeaveStatus = (typeof LEAVE_STATUSES)[number];

@Entity('leave_types')
export class LeaveType {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ type: 'varchar', length: 100 }) name: string;
  @Column({ name: 'default_days', type: 'decimal', precision: 6, scale: 1, transformer: DAYS }) defaultDays: number;
  @Column({ type: 'varchar', length: 7, nullable: true }) color: string | null;
  /** Requests may take the balance below zero. */
  @Column({ name: 'allow_negative', type: 'boolean', default: false }) allowNegative: boolean;
}

@Entity('leave_periods')
export class LeavePeriod {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ type: 'varchar', length: 100 }) name: string;
  @Column({ name: 'date_start', type: 'date' }) dateStart: string;
  @Column({ name: 'date_end', type: 'date' }) dateEnd: string;
}

@Entity('leave_entitlements')
export class LeaveEntitlement {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'employee_id', type: 'integer' }) employeeId: number;
  @Column({ name: 'leave_type_id', type: 'integer' }) leaveTypeId: number;
  @Column({ name: 'leave_period_id', type: 'integer' }) leavePeriodId: number;
  @Column({ type: 'decimal', precision: 6, scale: 1, transformer: DAYS }) days: number;
  /** The per-employee policy assignment that grants the days (issue 31). */
  @Column({ name: 'assignment_id', type: 'integer', nullable: true }) assignmentId: number | null;
}

@Entity('leave_requests')
export class LeaveRequest {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'employee_id', type: 'integer' }) employeeId: number;
  @Column({ name: 'leave_type_id', type: 'integer' }) leaveTypeId: number;
  @Column({ name: 'date_start', type: 'date' }) dateStart: string;
  @Column({ name: 'date_end', type: 'date' }) dateEnd: string;
  @Column({ name: 'half_day', type: 'boolean', default: false }) halfDay: boolean;
  @Column({ type: 'decimal', precision: 6, scale: 1, transformer: DAYS }) days: number;
  @Column({ type: 'varchar', length: 10 }) status: LeaveStatus;
  @Column({ type: 'varchar', length: 500, nullable: true }) reason: string | null;
  /** The employee who decided (supervisor or approver); null when an Admin without an employee did. */
  @Column({ name: 'approver_id', type: 'integer', nullable: true }) approverId: number | null;
  @Column({ name: 'decided_by', type: 'integer', nullable: true }) decidedBy: number | null;
  @Column({ name: 'decided_at', type: 'datetime', nullable: true }) decidedAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'datetime' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'datetime' }) updatedAt: Date;
}

/**
 * One working day of a leave request (0.5 for a half day), kept beside the request so insights
 * count the days of any period, pattern and breakdown by GROUP BY on indexed columns. Written with
 * the request, its status kept in step (migration 1763800000013-LeaveDays).
 */
@Entity('leave_days')
export class LeaveDay {
  @PrimaryColumn({ name: 'request_id', type: 'integer' }) requestId: number;
  @PrimaryColumn({ type: 'date' }) date: string;
  @Column({ name: 'employee_id', type: 'integer' }) employeeId: number;
  @Column({ name: 'leave_type_id', type: 'integer' }) leaveTypeId: number;
  @Column({ type: 'varchar', length: 10 }) status: LeaveStatus;
  @Column({ type: 'decimal', precision: 3, scale: 1, transformer: DAYS }) days: number;
  /** The marks insights count requests by (leaveDayMarks; migration 1763800000014). */
  @Column({ name: 'first_date', type: 'date' }) firstDate: string;
  @Column({ name: 'first_of_dom', type: 'boolean' }) firstOfDom: boolean;
  @Column({ name: 'first_of_weekday', type: 'boolean' }) firstOfWeekday: boolean;
}

export const LEAVE_ENTITIES = [LeaveType, LeavePeriod, LeaveEntitlement, LeaveRequest, LeaveDay];
