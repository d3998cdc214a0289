import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { MONEY_COLUMN } from '../../common/money/money';

/** The columns every reference table has: an id and a unique name. */
export abstract class NamedReference {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 100 })
  name: string;
}

@Entity('departments')
export class Department extends NamedReference {
  @Index('ix_departments_parent_id')
  @Column({ name: 'parent_id', type: 'integer', nullable: true })
  parentId: number | null;

  /** The employee who heads it (issue 45: the approver role department_head). */
  @Column({ name: 'head_id', type: 'integer', nullable: true })
  headId: number | null;
}

@Entity('pay_grades')
export class PayGrade extends NamedReference {
  @Column({ type: 'varchar', length: 3, nullable: true })
  currency: string | null;

  /** Decimal strings: exact money, never binary floats. */
  @Column({ name: 'min_salary', type: 'decimal', precision: 14, scale: 2, nullable: true, transformer: MONEY_COLUMN })
  minSalary: string | null;

  @Column({ name: 'max_salary', type: 'decimal', precision: 14, scale: 2, nullable: true, transformer: MONEY_COLUMN })
  maxSalary: string | null;
}

@Entity('job_titles')
export class JobTitle extends NamedReference {}

@Entity('employment_statuses')
export class EmploymentStatus extends NamedReference {}

@Entity('nationalities')
export class Nationality extends NamedReference {}

@Entity('languages')
export class Language extends NamedReference {}

@Entity('skills')
export class Skill extends NamedReference {}

@Entity('certifications')
export class Certification extends NamedReference {}

@Entity('education_levels')
export class EducationLevel extends NamedReference {}

export const REFERENCE_ENTITIES = [
  Department,
  PayGrade,
  JobTitle,
  EmploymentStatus,
  Nationality,
  Language,
  Skill,
  Certification,
  EducationLevel,
];
