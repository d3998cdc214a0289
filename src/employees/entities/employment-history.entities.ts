import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

export const CHANGE_STATUSES = ['Scheduled', 'Effective', 'Cancelled'] as const;
export type ChangeStatus = (typeof CHANGE_STATUSES)[number];

/** A recorded change of an employee's dated fields and salary (migration 1763800000033). */
@Entity('employment_changes')
export class EmploymentChange {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'employee_id', type: 'integer' }) employeeId: number;
  @Column({ name: 'effective_date', type: 'date' }) effectiveDate: string;
  @Column({ type: 'varchar', length: 500, nullable: true }) reason: string | null;
  /** JSON: dated field (API name) → id or null. */
  @Column({ type: 'text' }) fields: string;
  /** JSON: [{component, amount}], or null when the change leaves the salary alone. */
  @Column({ type: 'text', nullable: true }) salary: string | null;
  @Column({ type: 'varchar', length: 10 }) status: ChangeStatus;
  @Column({ name: 'recorded_at', type: 'datetime', precision: 3 }) recordedAt: Date;
  /** The user who recorded it; null for the migration's and the system's. */
  @Column({ name: 'recorded_by', type: 'integer', nullable: true }) recordedBy: number | null;
  @Column({ name: 'cancelled_at', type: 'datetime', precision: 3, nullable: true }) cancelledAt: Date | null;
  @Column({ type: 'integer', nullable: true }) corrects: number | null;
}

/** A stretch of days with one set of values, as known now: what the as-of reads join. */
@Entity('employment_segments')
export class EmploymentSegment {
  @PrimaryColumn({ name: 'employee_id', type: 'integer' }) employeeId: number;
  @PrimaryColumn({ name: 'effective_from', type: 'date' }) effectiveFrom: string;
  @Column({ name: 'effective_to', type: 'date', nullable: true }) effectiveTo: string | null;
  @Column({ name: 'job_title_id', type: 'integer', nullable: true }) jobTitleId: number | null;
  @Column({ name: 'department_id', type: 'integer', nullable: true }) departmentId: number | null;
  @Column({ name: 'pay_grade_id', type: 'integer', nullable: true }) payGradeId: number | null;
  @Column({ name: 'employment_status_id', type: 'integer', nullable: true }) employmentStatusId: number | null;
  @Column({ name: 'supervisor_id', type: 'integer', nullable: true }) supervisorId: number | null;
  @Column({ name: 'approver1_id', type: 'integer', nullable: true }) approver1Id: number | null;
  @Column({ name: 'approver2_id', type: 'integer', nullable: true }) approver2Id: number | null;
  @Column({ name: 'approver3_id', type: 'integer', nullable: true }) approver3Id: number | null;
  @Column({ name: 'calendar_id', type: 'integer', nullable: true }) calendarId: number | null;
  /** JSON: [{component, amount}]. */
  @Column({ type: 'text' }) salary: string;
  @Column({ name: 'change_id', type: 'integer' }) changeId: number;
  /** JSON: the dated values of other modules' properties (property → key → value), null when none (EmployeeExtension.dated). */
  @Column({ type: 'text', nullable: true }) extra: string | null;
}

export const EMPLOYMENT_HISTORY_ENTITIES = [EmploymentChange, EmploymentSegment];
