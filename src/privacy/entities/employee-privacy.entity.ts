import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * What the privacy module keeps of an employee (issue 69): a legal hold, which blocks anonymisation
 * by hand and by policy, and when the employee was anonymised. No row: neither.
 */
@Entity('employee_privacy')
export class EmployeePrivacy {
  @PrimaryColumn({ name: 'employee_id', type: 'integer' }) employeeId: number;
  @Column({ name: 'legal_hold', type: 'boolean', default: false }) legalHold: boolean;
  @Column({ name: 'anonymised_at', type: 'datetime', nullable: true }) anonymisedAt: Date | null;
  @UpdateDateColumn({ name: 'updated_at', type: 'datetime' }) updatedAt: Date;
}

export const PRIVACY_ENTITIES = [EmployeePrivacy];
