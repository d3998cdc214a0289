import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export const TIME_ENTRY_STATUSES = ['Draft', 'Submitted', 'Approved', 'Rejected'] as const;
export type TimeEntryStatus = (typeof TIME_ENTRY_STATUSES)[number];

@Entity('projects')
export class Project {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ type: 'varchar', length: 100 }) name: string;
  @Column({ type: 'varchar', length: 100, nullable: true }) client: string | null;
}

/** One block of work on a day; start and end are "HH:MM" on that date (no overnight entries). */
@Entity('time_entries')
export class TimeEntry {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'employee_id', type: 'integer' }) employeeId: number;
  @Column({ name: 'project_id', type: 'integer', nullable: true }) projectId: number | null;
  @Column({ type: 'date' }) date: string;
  @Column({ name: 'start_time', type: 'varchar', length: 5 }) start: string;
  @Column({ name: 'end_time', type: 'varchar', length: 5 }) end: string;
  /** end − start, kept in step by the service; insights and payroll hooks add these up. */
  @Column({ type: 'integer' }) minutes: number;
  @Column({ type: 'varchar', length: 500, nullable: true }) details: string | null;
  @Column({ type: 'varchar', length: 10 }) status: TimeEntryStatus;
  @Column({ name: 'decided_by', type: 'integer', nullable: true }) decidedBy: number | null;
  @Column({ name: 'decided_at', type: 'datetime', nullable: true }) decidedAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'datetime' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'datetime' }) updatedAt: Date;
}
