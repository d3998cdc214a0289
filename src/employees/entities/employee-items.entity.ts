import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Columns every employee sub-record has. Indexes and foreign keys are in the migration. */
export abstract class EmployeeItem {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'employee_id', type: 'integer' }) employeeId: number;
}

@Entity('employee_skills')
export class EmployeeSkill extends EmployeeItem {
  @Column({ name: 'skill_id', type: 'integer' }) skillId: number;
  @Column({ type: 'varchar', length: 500, nullable: true }) details: string | null;
}

@Entity('employee_educations')
export class EmployeeEducation extends EmployeeItem {
  @Column({ name: 'education_level_id', type: 'integer', nullable: true }) educationLevelId: number | null;
  @Column({ type: 'varchar', length: 200 }) institute: string;
  @Column({ name: 'date_start', type: 'date', nullable: true }) dateStart: string | null;
  @Column({ name: 'date_end', type: 'date', nullable: true }) dateEnd: string | null;
}

@Entity('employee_certifications')
export class EmployeeCertification extends EmployeeItem {
  @Column({ name: 'certification_id', type: 'integer' }) certificationId: number;
  @Column({ type: 'varchar', length: 200, nullable: true }) institute: string | null;
  @Column({ name: 'date_start', type: 'date', nullable: true }) dateStart: string | null;
  @Column({ name: 'date_end', type: 'date', nullable: true }) dateEnd: string | null;
}

@Entity('employee_languages')
export class EmployeeLanguage extends EmployeeItem {
  @Column({ name: 'language_id', type: 'integer' }) languageId: number;
  @Column({ type: 'varchar', length: 30, nullable: true }) reading: string | null;
  @Column({ type: 'varchar', length: 30, nullable: true }) speaking: string | null;
  @Column({ type: 'varchar', length: 30, nullable: true }) writing: string | null;
  @Column({ type: 'varchar', length: 30, nullable: true }) understanding: string | null;
}

/** The status message history; the newest row is the current message. */
@Entity('employee_status_messages')
export class EmployeeStatusMessage extends EmployeeItem {
  @Column({ type: 'varchar', length: 500 }) message: string;
  @Column({ name: 'created_by', type: 'integer', nullable: true }) createdBy: number | null;
  @CreateDateColumn({ name: 'created_at', type: 'datetime' }) createdAt: Date;
}

export const EMPLOYEE_ITEM_ENTITIES = [
  EmployeeSkill,
  EmployeeEducation,
  EmployeeCertification,
  EmployeeLanguage,
  EmployeeStatusMessage,
];
