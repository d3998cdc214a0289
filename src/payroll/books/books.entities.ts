import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const COST_CENTRES = ['none', 'department'] as const;
export type CostCentre = (typeof COST_CENTRES)[number];

/** Where a payroll column posts in the books (issue 46): a debit and a credit account, split by department or not. */
@Entity('payroll_accounts')
export class PayrollAccount {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'column_id', type: 'integer' }) columnId: number;
  @Column({ name: 'debit_account', type: 'varchar', length: 40, nullable: true }) debitAccount: string | null;
  @Column({ name: 'credit_account', type: 'varchar', length: 40, nullable: true }) creditAccount: string | null;
  @Column({ name: 'cost_centre', type: 'varchar', length: 10, default: 'none' }) costCentre: CostCentre;
}

/** A bank file made for a payroll's revision (Hardening IV item 19): its parameters, what it pays, where its bytes are. */
@Entity('payroll_bank_files')
export class PayrollBankFile {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'payroll_id', type: 'integer' }) payrollId: number;
  @Column({ type: 'integer' }) revision: number;
  @Column({ type: 'varchar', length: 20 }) format: string;
  @Column({ name: 'execution_date', type: 'varchar', length: 10 }) executionDate: string;
  @Column({ name: 'skip_missing', type: 'boolean', default: false }) skipMissing: boolean;
  @Column({ name: 'msg_id', type: 'varchar', length: 35 }) msgId: string;
  @Column({ type: 'varchar', length: 64 }) sha256: string;
  @Column({ type: 'integer' }) transactions: number;
  /** Σ of the transfers, a decimal string (several currencies: their plain sum, as CtrlSum). */
  @Column({ type: 'varchar', length: 40 }) total: string;
  @Column({ name: 'storage_key', type: 'varchar', length: 64 }) storageKey: string;
  @Column({ type: 'integer' }) size: number;
  @Column({ name: 'created_by', type: 'integer', nullable: true }) createdBy: number | null;
  @CreateDateColumn({ name: 'created_at', type: 'datetime' }) createdAt: Date;
}
