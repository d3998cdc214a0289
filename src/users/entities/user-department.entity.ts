import { Entity, Index, PrimaryColumn } from 'typeorm';

/** Departments assigned to a Restricted Admin: its scope (with their child departments). */
@Entity('user_departments')
export class UserDepartment {
  @PrimaryColumn({ name: 'user_id', type: 'integer' })
  userId: number;

  @Index('ix_user_departments_department')
  @PrimaryColumn({ name: 'department_id', type: 'integer' })
  departmentId: number;
}
