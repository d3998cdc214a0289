import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const IMPORT_STATUSES = ['Queued', 'Validating', 'Validated', 'Importing', 'Completed', 'Failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
export const IMPORT_MODES = ['all-or-nothing', 'valid-rows'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

/** An import of a CSV or XLSX file (docs/api/decisions.md §13): a job of the `imports` queue. */
@Entity('imports')
export class ImportRecord {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ type: 'varchar', length: 40 }) kind: string;
  @Column({ name: 'file_name', type: 'varchar', length: 255 }) fileName: string;
  @Column({ type: 'varchar', length: 4 }) format: 'csv' | 'xlsx';
  /** The stored file's random name in IMPORT_DIR (null once it is removed). */
  @Column({ name: 'file_key', type: 'varchar', length: 64, nullable: true }) fileKey: string | null;
  /** Bytes of the uploaded file. */
  @Column({ name: 'file_bytes', type: 'integer', nullable: true }) fileBytes: number | null;
  @Column({ name: 'dry_run', type: 'boolean' }) dryRun: boolean;
  @Column({ type: 'varchar', length: 20 }) mode: ImportMode;
  @Column({ type: 'varchar', length: 20 }) status: ImportStatus;
  /** payroll-data: the payroll whose cells it edits. */
  @Column({ name: 'payroll_id', type: 'integer', nullable: true }) payrollId: number | null;
  @Column({ name: 'rows_total', type: 'integer' }) rowsTotal: number;
  @Column({ name: 'rows_valid', type: 'integer' }) rowsValid: number;
  @Column({ name: 'rows_failed', type: 'integer' }) rowsFailed: number;
  /** Rows written so far (valid-rows imports commit batch by batch: a resumed attempt starts after them). */
  @Column({ name: 'rows_done', type: 'integer' }) rowsDone: number;
  /** 0-100. */
  @Column({ type: 'integer' }) progress: number;
  /** Why the whole file failed (unreadable, too large, an internal error); row problems are in import_errors. */
  @Column({ type: 'varchar', length: 500, nullable: true }) error: string | null;
  /** The attempt that owns the import now: an earlier attempt still running finds it taken and stops. */
  @Column({ type: 'varchar', length: 36, nullable: true }) claim: string | null;
  /** Attempts taken up again after their process died (JOB_MAX_WORKER_DEATHS ends it Failed). */
  @Column({ type: 'integer', default: 0 }) restarts: number;
  @Column({ name: 'created_by', type: 'integer' }) createdBy: number;
  @CreateDateColumn({ name: 'created_at', type: 'datetime' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'datetime' }) updatedAt: Date;
  @Column({ name: 'finished_at', type: 'datetime', nullable: true }) finishedAt: Date | null;
}

/** A row's problem (row 1 = the first data row). */
@Entity('import_errors')
export class ImportErrorRecord {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'import_id', type: 'integer' }) importId: number;
  @Column({ type: 'integer' }) row: number;
  @Column({ type: 'varchar', length: 255, nullable: true }) column: string | null;
  @Column({ type: 'varchar', length: 100, nullable: true }) field: string | null;
  @Column({ type: 'varchar', length: 1000 }) message: string;
}
