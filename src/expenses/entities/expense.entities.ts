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

export const EXPENSE_ENTITIES = [ExpenseCategory, ExchangeRate];
