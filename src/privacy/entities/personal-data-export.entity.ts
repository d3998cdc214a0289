import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** Where a subject-access export stands. */
export const PERSONAL_DATA_EXPORT_STATUSES = ['Queued', 'Running', 'Ready', 'Failed', 'Expired'] as const;
export type PersonalDataExportStatus = (typeof PERSONAL_DATA_EXPORT_STATUSES)[number];

/**
 * A subject-access export (issue 69, GDPR art. 15): one ZIP of everything the service holds about
 * an employee, built by a job into the file store, kept 7 days (`expires_at`), then its file removed.
 */
@Entity('personal_data_exports')
@Index('ix_personal_data_exports_employee', ['employeeId', 'status'])
@Index('ix_personal_data_exports_expiry', ['status', 'expiresAt'])
export class PersonalDataExport {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'employee_id', type: 'integer' }) employeeId: number;
  /** The user who asked: it and the Admins may read and download it. */
  @Column({ name: 'requested_by', type: 'integer', nullable: true }) requestedBy: number | null;
  @Column({ type: 'varchar', length: 16 }) status: PersonalDataExportStatus;
  @Column({ name: 'file_key', type: 'varchar', length: 64, nullable: true }) fileKey: string | null;
  @Column({ type: 'integer', nullable: true }) size: number | null;
  @Column({ type: 'varchar', length: 500, nullable: true }) error: string | null;
  /** Attempts whose process died (the job is given up after JOB_MAX_WORKER_DEATHS). */
  @Column({ type: 'integer', default: 0 }) restarts: number;
  @Column({ name: 'created_at', type: 'datetime' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'datetime' }) updatedAt: Date;
  @Column({ name: 'finished_at', type: 'datetime', nullable: true }) finishedAt: Date | null;
  @Column({ name: 'expires_at', type: 'datetime' }) expiresAt: Date;
}
