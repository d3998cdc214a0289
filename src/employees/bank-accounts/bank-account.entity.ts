import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** An employee's bank account (issue 46): where the bank file pays its net; one per employee is primary. */
@Entity('employee_bank_accounts')
export class EmployeeBankAccount {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'employee_id', type: 'integer' }) employeeId: number;
  @Column({ type: 'varchar', length: 34 }) iban: string;
  @Column({ type: 'varchar', length: 11, nullable: true }) bic: string | null;
  @Column({ name: 'holder_name', type: 'varchar', length: 140 }) holderName: string;
  @Column({ name: 'is_primary', type: 'boolean', default: false }) primary: boolean;
  @CreateDateColumn({ name: 'created_at', type: 'datetime' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'datetime' }) updatedAt: Date;
}
