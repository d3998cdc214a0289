import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { DECIMAL_TEXT_COLUMN, MONEY_COLUMN } from '../../common/money/money';

/** A kind of expense (issue 68): the journal account it posts to, a ceiling per item, whether a receipt is needed. */
@Entity('expense_categories')
@Index('uq_expense_categories_name', ['name'], { unique: true })
export class ExpenseCategory {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ type: 'varchar', length: 100 }) name: string;
  /** The journal account an item of it debits. */
  @Column({ type: 'varchar', length: 40 }) account: string;
  /** The most one item may claim, in the claim's currency; null: no ceiling. */
  @Column({ name: 'max_amount', type: 'decimal', precision: 14, scale: 2, nullable: true, transformer: MONEY_COLUMN })
  maxAmount: string | null;
  @Column({ name: 'requires_receipt', type: 'boolean', default: false }) requiresReceipt: boolean;
  @CreateDateColumn({ name: 'created_at', type: 'datetime' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'datetime' }) updatedAt: Date;
}

/**
 * Units of the company currency (the setting Company Currency) per unit of `currency` from `date`
 * on (issue 68): an amount of that day converts at the rate of its date or the last one before.
 */
@Entity('exchange_rates')
@Index('uq_exchange_rates_day', ['currency', 'date'], { unique: true })
export class ExchangeRate {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ type: 'varchar', length: 3 }) currency: string;
  @Column({ type: 'date' }) date: string;
  @Column({ type: 'decimal', precision: 24, scale: 10, transformer: DECIMAL_TEXT_COLUMN }) rate: string;
}

/** A positive decimal with at most 14 digits before the point and 10 after (a rate as the API takes it). */
export const RATE_PATTERN = /^(?=.*[1-9])\d{1,14}(\.\d{1,10})?$/;

export const EXPENSE_CLAIM_STATUSES = ['Draft', 'Submitted', 'Approved', 'Rejected', 'Paid', 'Cancelled'] as const;
export type ExpenseClaimStatus = (typeof EXPENSE_CLAIM_STATUSES)[number];

/**
 * An employee's claim (issue 68): items in any currency, converted into `currency` (the employee's
 * payroll currency when it was created), approved through the chains, paid once: by the payroll
 * `paidIn` when that payroll completes, or outside payroll with a reference.
 */
@Entity('expense_claims')
@Index('ix_expense_claims_employee', ['employeeId', 'id'])
@Index('ix_expense_claims_payable', ['status', 'approvedOn'])
@Index('ix_expense_claims_paid_in', ['paidIn'])
export class ExpenseClaim {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'employee_id', type: 'integer' }) employeeId: number;
  @Column({ type: 'varchar', length: 200 }) title: string;
  @Column({ type: 'varchar', length: 3 }) currency: string;
  @Column({ type: 'varchar', length: 10 }) status: ExpenseClaimStatus;
  /** Σ of the items' converted amounts, in `currency`. */
  @Column({ type: 'decimal', precision: 18, scale: 4, transformer: DECIMAL_TEXT_COLUMN }) total: string;
  @Column({ name: 'submitted_at', type: 'datetime', nullable: true }) submittedAt: Date | null;
  @Column({ name: 'decided_at', type: 'datetime', nullable: true }) decidedAt: Date | null;
  /** The company's day of its approval: a payroll pays the claims approved by its last day. */
  @Column({ name: 'approved_on', type: 'date', nullable: true }) approvedOn: string | null;
  /** The payroll that paid it (Paid through payroll); null otherwise. */
  @Column({ name: 'paid_in', type: 'integer', nullable: true }) paidIn: number | null;
  /** How it was paid outside payroll (a bank transfer's reference). */
  @Column({ name: 'paid_reference', type: 'varchar', length: 140, nullable: true }) paidReference: string | null;
  @Column({ name: 'paid_at', type: 'datetime', nullable: true }) paidAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'datetime' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'datetime' }) updatedAt: Date;
}

/** One expense of a claim: its amount in its own currency, the rate used and the amount in the claim's currency. */
@Entity('expense_items')
@Index('ix_expense_items_claim', ['claimId', 'position'])
@Index('ix_expense_items_category', ['categoryId'])
export class ExpenseItem {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'claim_id', type: 'integer' }) claimId: number;
  @Column({ type: 'integer' }) position: number;
  @Column({ name: 'category_id', type: 'integer' }) categoryId: number;
  @Column({ type: 'date' }) date: string;
  @Column({ type: 'varchar', length: 500 }) description: string;
  @Column({ type: 'decimal', precision: 18, scale: 4, transformer: DECIMAL_TEXT_COLUMN }) amount: string;
  @Column({ type: 'varchar', length: 3 }) currency: string;
  /** Units of the claim's currency per unit of `currency` on `date` (1 in the same currency). */
  @Column({ type: 'decimal', precision: 24, scale: 10, transformer: DECIMAL_TEXT_COLUMN }) rate: string;
  @Column({ name: 'amount_converted', type: 'decimal', precision: 18, scale: 4, transformer: DECIMAL_TEXT_COLUMN })
  amountConverted: string;
  /** The receipt: a document of the employee (type Receipt). */
  @Column({ name: 'receipt_document_id', type: 'integer', nullable: true }) receiptDocumentId: number | null;
}

export const EXPENSE_ENTITIES = [ExpenseCategory, ExchangeRate, ExpenseClaim, ExpenseItem];
