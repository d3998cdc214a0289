import { Column, CreateDateColumn, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { DECIMAL_TEXT_COLUMN } from '../../common/money/money';
import type { ColumnSnapshot, EmployeeInputs } from '../engine/stored-inputs';
import type { ProrationRule } from '../engine/proration';

export const PAYROLL_STATUSES = ['Draft', 'Processing', 'Processed', 'Failed', 'Completing', 'Completed'] as const;
export type PayrollStatus = (typeof PAYROLL_STATUSES)[number];

/** A payroll table version a run read. */
export interface UsedTableVersion {
  table: number;
  name: string;
  /** The version's id. */
  version: number;
  effective_from: string;
}

@Entity('payrolls')
export class Payroll {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ type: 'varchar', length: 100 }) name: string;
  /** Pay frequency id. */
  @Column({ name: 'pay_period', type: 'integer' }) payPeriod: number;
  @Column({ name: 'department_id', type: 'integer' }) departmentId: number;
  @Column({ name: 'deduction_group_id', type: 'integer', nullable: true }) deductionGroupId: number | null;
  @Column({ name: 'date_start', type: 'date' }) dateStart: string;
  @Column({ name: 'date_end', type: 'date' }) dateEnd: string;
  /** Overrides its pay frequency's proration rule; null: the pay frequency's (issue 44). */
  @Column({ type: 'varchar', length: 14, nullable: true }) proration: ProrationRule | null;
  /** Payroll column ids. */
  @Column({ type: 'simple-json' }) columns: number[];
  @Column({ name: 'payslip_template_id', type: 'integer', nullable: true }) payslipTemplateId: number | null;
  @Column({ type: 'varchar', length: 12 }) status: PayrollStatus;
  @Column({ type: 'integer', default: 0 }) progress: number;
  @Column({ type: 'varchar', length: 1000, nullable: true }) error: string | null;
  /** When the current job-run state (Processing, Completing) was claimed; PAYROLL_RUN_TIMEOUT counts from here. */
  @Column({ name: 'processing_started_at', type: 'datetime', nullable: true }) claimedAt: Date | null;
  /** The current claim's token (a UUID): names its job (see migration PayrollClaims). */
  @Column({ type: 'varchar', length: 36, nullable: true }) claim: string | null;
  /** To the millisecond (migration 38): arrears tell changes recorded after it from those before. */
  @Column({ name: 'processed_at', type: 'datetime', precision: 3, nullable: true }) processedAt: Date | null;
  @Column({ name: 'completed_at', type: 'datetime', nullable: true }) completedAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'datetime' }) createdAt: Date;
  /** The column definitions its last processing used (null: never processed since inputs are kept). */
  @Column({ name: 'column_set_id', type: 'integer', nullable: true }) columnSetId: number | null;
  /** The revision of payroll_run_inputs its cells were computed from. */
  @Column({ name: 'inputs_revision', type: 'integer', nullable: true }) inputsRevision: number | null;
  /** The payroll table versions its last processing read: [{table, name, version, effective_from}] (issue 44). */
  @Column({ name: 'table_versions', type: 'simple-json', nullable: true }) tableVersions: UsedTableVersion[] | null;
  /** Bumped by every change of its cells (processing, edits). */
  @Column({ type: 'integer', default: 0 }) revision: number;
  /** The revision its cells and errors are read at: the last run that finished (issue 70). */
  @Column({ name: 'cells_revision', type: 'integer', default: 0 }) cellsRevision: number;
  /** The revision of its latest claim to be processed: what that run's chunks write under. */
  @Column({ name: 'run_revision', type: 'integer', default: 0 }) runRevision: number;
  /** The column that is the net pay, which the bank file pays (issue 46). */
  @Column({ name: 'net_column_id', type: 'integer', nullable: true }) netColumnId: number | null;
}

/** Column definitions as a run used them, shared by the runs that used the same (by hash). */
@Entity('payroll_column_sets')
export class PayrollColumnSet {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ type: 'varchar', length: 64 }) hash: string;
  @Column({ type: 'simple-json' }) columns: ColumnSnapshot[];
  @CreateDateColumn({ name: 'created_at', type: 'datetime' }) createdAt: Date;
}

/** One employee's inputs to one run (src/payroll/runs/run-inputs.ts). */
@Entity('payroll_run_inputs')
export class PayrollRunInput {
  @PrimaryColumn({ name: 'payroll_id', type: 'integer' }) payrollId: number;
  @PrimaryColumn({ type: 'integer' }) revision: number;
  @PrimaryColumn({ name: 'employee_id', type: 'integer' }) employeeId: number;
  @Column({ type: 'simple-json' }) inputs: EmployeeInputs;
}

export const CHUNK_STATUSES = ['Waiting', 'Done'] as const;

/** One chunk of a run (issue 70): its employees, what every chunk of the run computes with, and whether it is written. */
@Entity('payroll_chunks')
export class PayrollChunk {
  @PrimaryColumn({ name: 'payroll_id', type: 'integer' }) payrollId: number;
  @PrimaryColumn({ type: 'integer' }) revision: number;
  @PrimaryColumn({ type: 'integer' }) chunk: number;
  @Column({ type: 'simple-json' }) employees: number[];
  @Column({ type: 'integer' }) size: number;
  @Column({ name: 'column_set_id', type: 'integer' }) columnSetId: number;
  @Column({ name: 'table_versions', type: 'simple-json' }) tableVersions: UsedTableVersion[];
  @Column({ type: 'varchar', length: 8 }) status: (typeof CHUNK_STATUSES)[number];
  @Column({ type: 'integer', default: 0 }) errors: number;
}

/** A payslip that could not be made (its template's render, or its PDF), and why. */
export interface PayslipFailure {
  employee: number;
  message: string;
}

/** One chunk of a claim to generate a payroll's payslips (issue 70): its employees, whether it is written, what failed. */
@Entity('payslip_chunks')
export class PayslipChunk {
  @PrimaryColumn({ name: 'payroll_id', type: 'integer' }) payrollId: number;
  /** The claim (Payroll.claim) of the generation it belongs to. */
  @PrimaryColumn({ type: 'varchar', length: 36 }) claim: string;
  @PrimaryColumn({ type: 'integer' }) chunk: number;
  @Column({ type: 'simple-json' }) employees: number[];
  @Column({ type: 'integer' }) size: number;
  @Column({ type: 'varchar', length: 8 }) status: (typeof CHUNK_STATUSES)[number];
  /** The chunk's payslips that could not be made (none kept for the payroll then). */
  @Column({ type: 'simple-json' }) failures: PayslipFailure[];
}

@Entity('payroll_cells')
export class PayrollCell {
  @PrimaryColumn({ name: 'payroll_id', type: 'integer' }) payrollId: number;
  @PrimaryColumn({ name: 'employee_id', type: 'integer' }) employeeId: number;
  @PrimaryColumn({ name: 'column_id', type: 'integer' }) columnId: number;
  /** The run that wrote it (Payroll.cellsRevision: the payroll's cells), last in the key. */
  @PrimaryColumn({ type: 'integer', default: 0 }) revision: number;
  @Column({ type: 'decimal', precision: 14, scale: 3, nullable: true, transformer: DECIMAL_TEXT_COLUMN }) value: string | null;
  /** Set by POST .../data on an editable column: kept when the payroll is processed again. */
  @Column({ type: 'boolean', default: false }) edited: boolean;
}

@Entity('payroll_errors')
export class PayrollError {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'payroll_id', type: 'integer' }) payrollId: number;
  /** The run that found it (Payroll.cellsRevision: the payroll's errors). */
  @Column({ type: 'integer', default: 0 }) revision: number;
  @Column({ name: 'employee_id', type: 'integer', nullable: true }) employeeId: number | null;
  @Column({ name: 'column_id', type: 'integer', nullable: true }) columnId: number | null;
  @Column({ type: 'varchar', length: 500 }) message: string;
}

export const TEMPLATE_STATUSES = ['Active', 'Inactive'] as const;

@Entity('payslip_templates')
export class PayslipTemplate {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ type: 'varchar', length: 100 }) name: string;
  @Column({ type: 'varchar', length: 10 }) status: (typeof TEMPLATE_STATUSES)[number];
  /** Handlebars HTML. */
  @Column({ type: 'text' }) content: string;
}

@Entity('payslips')
export class Payslip {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'payroll_id', type: 'integer' }) payrollId: number;
  @Column({ name: 'employee_id', type: 'integer' }) employeeId: number;
  @Column({ type: 'text' }) html: string;
  /** Its PDF, kept as the employee's document (null without a browser, or once the document is deleted). */
  @Column({ name: 'document_id', type: 'integer', nullable: true }) documentId: number | null;
  @Column({ name: 'delivery_status', type: 'varchar', length: 16, default: 'not_sent' }) deliveryStatus: PayslipDeliveryStatus;
  @Column({ name: 'delivered_at', type: 'datetime', nullable: true }) deliveredAt: Date | null;
  /** Why the last delivery failed (the SMTP server's answer), or why it is unknown. */
  @Column({ name: 'delivery_error', type: 'varchar', length: 500, nullable: true }) deliveryError: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'datetime' }) createdAt: Date;
}

/** Where a payslip's e-mail stands (docs/api/decisions.md §15). */
export const PAYSLIP_DELIVERY_STATUSES = ['not_sent', 'queued', 'sent', 'failed', 'no_address', 'unknown'] as const;
export type PayslipDeliveryStatus = (typeof PAYSLIP_DELIVERY_STATUSES)[number];

export const PAYROLL_RUN_ENTITIES = [
  Payroll,
  PayrollColumnSet,
  PayrollRunInput,
  PayrollChunk,
  PayslipChunk,
  PayrollCell,
  PayrollError,
  PayslipTemplate,
  Payslip,
];
