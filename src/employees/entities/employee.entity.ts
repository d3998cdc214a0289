import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export const GENDERS = ['Male', 'Female', 'Other'] as const;
export const EMPLOYEE_STATUSES = ['Active', 'Terminated'] as const;
export type EmployeeStatus = (typeof EMPLOYEE_STATUSES)[number];

/** Indexes are declared in the migration (1763800000002-Employees). */
@Entity('employees')
export class Employee {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  /** The external employee identifier ("E0042"), unique. */
  @Column({ name: 'employee_id', type: 'varchar', length: 50 }) employeeId: string;
  @Column({ name: 'first_name', type: 'varchar', length: 100 }) firstName: string;
  @Column({ name: 'middle_name', type: 'varchar', length: 100, nullable: true }) middleName: string | null;
  @Column({ name: 'last_name', type: 'varchar', length: 100 }) lastName: string;
  @Column({ type: 'varchar', length: 10, nullable: true }) gender: string | null;
  @Column({ name: 'marital_status', type: 'varchar', length: 30, nullable: true }) maritalStatus: string | null;
  @Column({ type: 'date', nullable: true }) birthday: string | null;
  @Column({ name: 'joined_date', type: 'date' }) joinedDate: string;
  @Column({ name: 'confirmation_date', type: 'date', nullable: true }) confirmationDate: string | null;
  @Column({ name: 'termination_date', type: 'date', nullable: true }) terminationDate: string | null;
  @Column({ name: 'nationality_id', type: 'integer', nullable: true }) nationalityId: number | null;
  @Column({ name: 'ssn_num', type: 'varchar', length: 100, nullable: true }) ssnNum: string | null;
  @Column({ name: 'nic_num', type: 'varchar', length: 100, nullable: true }) nicNum: string | null;
  @Column({ name: 'other_id', type: 'varchar', length: 100, nullable: true }) otherId: string | null;
  @Column({ name: 'driving_license', type: 'varchar', length: 100, nullable: true }) drivingLicense: string | null;
  @Column({ type: 'varchar', length: 200, nullable: true }) address1: string | null;
  @Column({ type: 'varchar', length: 200, nullable: true }) address2: string | null;
  @Column({ type: 'varchar', length: 100, nullable: true }) city: string | null;
  /** ISO 3166-1 alpha-2. */
  @Column({ type: 'varchar', length: 2, nullable: true }) country: string | null;
  @Column({ type: 'varchar', length: 100, nullable: true }) province: string | null;
  @Column({ name: 'postal_code', type: 'varchar', length: 20, nullable: true }) postalCode: string | null;
  @Column({ name: 'home_phone', type: 'varchar', length: 30, nullable: true }) homePhone: string | null;
  @Column({ name: 'mobile_phone', type: 'varchar', length: 30, nullable: true }) mobilePhone: string | null;
  @Column({ name: 'work_phone', type: 'varchar', length: 30, nullable: true }) workPhone: string | null;
  @Column({ name: 'work_email', type: 'varchar', length: 255, nullable: true }) workEmail: string | null;
  @Column({ name: 'private_email', type: 'varchar', length: 255, nullable: true }) privateEmail: string | null;
  @Column({ name: 'employment_status_id', type: 'integer', nullable: true }) employmentStatusId: number | null;
  @Column({ name: 'job_title_id', type: 'integer', nullable: true }) jobTitleId: number | null;
  @Column({ name: 'pay_grade_id', type: 'integer', nullable: true }) payGradeId: number | null;
  @Column({ name: 'department_id', type: 'integer', nullable: true }) departmentId: number | null;
  @Column({ name: 'supervisor_id', type: 'integer', nullable: true }) supervisorId: number | null;
  @Column({ name: 'approver1_id', type: 'integer', nullable: true }) approver1Id: number | null;
  @Column({ name: 'approver2_id', type: 'integer', nullable: true }) approver2Id: number | null;
  @Column({ name: 'approver3_id', type: 'integer', nullable: true }) approver3Id: number | null;
  /** The work calendar (issue 65); null: the default calendar. */
  @Column({ name: 'calendar_id', type: 'integer', nullable: true }) calendarId: number | null;
  @Column({ type: 'varchar', length: 12, default: 'Active' }) status: EmployeeStatus;
  @CreateDateColumn({ name: 'created_at', type: 'datetime' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'datetime' }) updatedAt: Date;
}
