import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const TASK_STATUSES = ['Open', 'Completed'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const TASK_PRIORITIES = ['Low', 'Normal', 'High'] as const;
export type TaskPriority = (typeof TASK_PRIORITIES)[number];

/** Indexes and the foreign key are in the migration (1763800000012-Tasks). */
@Entity('tasks')
export class Task {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'user_id', type: 'integer' }) userId: number;
  @Column({ type: 'varchar', length: 200 }) title: string;
  @Column({ type: 'varchar', length: 2000, nullable: true }) description: string | null;
  @Column({ type: 'varchar', length: 10 }) status: TaskStatus;
  @Column({ type: 'varchar', length: 10 }) priority: TaskPriority;
  @Column({ name: 'due_date', type: 'date', nullable: true }) dueDate: string | null;
  @Column({ type: 'varchar', length: 500, nullable: true }) link: string | null;
  /** What made it: 'manual' (an Admin) or a task source a module declared (common/outbox/task-sources.ts). */
  @Column({ type: 'varchar', length: 50 }) source: string;
  @Column({ name: 'source_id', type: 'integer', nullable: true }) sourceId: number | null;
  @CreateDateColumn({ name: 'created_at', type: 'datetime' }) createdAt: Date;
  @Column({ name: 'completed_at', type: 'datetime', nullable: true }) completedAt: Date | null;
}
