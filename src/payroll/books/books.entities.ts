import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

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
