import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { RetentionAction } from '../../common/privacy/retention';
import { PersonalDataExport } from './personal-data-export.entity';

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

/**
 * A retention policy (issue 69, docs/api/privacy.md): a category of personal data kept `keepYears`
 * after the employee's termination date, then anonymised or deleted by the daily job. One per category.
 */
@Entity('retention_policies')
@Index('uq_retention_policies_category', ['category'], { unique: true })
export class RetentionPolicy {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ type: 'varchar', length: 30 }) category: string;
  @Column({ name: 'keep_years', type: 'integer' }) keepYears: number;
  @Column({ type: 'varchar', length: 10 }) action: RetentionAction;
  @UpdateDateColumn({ name: 'updated_at', type: 'datetime' }) updatedAt: Date;
}

export const PRIVACY_ENTITIES = [EmployeePrivacy, PersonalDataExport, RetentionPolicy];
