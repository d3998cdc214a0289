import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** Indexes and the foreign key are in the migration (1763800000004-Attendance). Times are UTC. */
@Entity('attendance')
export class AttendanceRecord {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'employee_id', type: 'integer' }) employeeId: number;
  @Column({ name: 'in_time', type: 'datetime' }) inTime: Date;
  @Column({ name: 'out_time', type: 'datetime', nullable: true }) outTime: Date | null;
  /** out − in, kept in step by the service; summaries add these up in SQL on either database. */
  @Column({ name: 'duration_seconds', type: 'integer', nullable: true }) durationSeconds: number | null;
  @Column({ type: 'varchar', length: 500, nullable: true }) note: string | null;
  @Column({ name: 'work_from_home', type: 'boolean', default: false }) workFromHome: boolean;
  @CreateDateColumn({ name: 'created_at', type: 'datetime' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'datetime' }) updatedAt: Date;
}
