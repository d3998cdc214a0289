import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A row of the audit log (written by common/audit/audit-log.ts `recordAudit`, read here). */
@Entity('audit_log')
export class AuditEntry {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ type: 'datetime' }) at: Date;
  @Column({ name: 'actor_user_id', type: 'integer', nullable: true }) actorUserId: number | null;
  @Column({ type: 'varchar', length: 20 }) actor: string;
  @Column({ type: 'varchar', length: 30 }) action: string;
  @Column({ type: 'varchar', length: 60 }) resource: string;
  @Column({ name: 'resource_id', type: 'varchar', length: 100 }) resourceId: string;
  @Column({ name: 'employee_id', type: 'integer', nullable: true }) employeeId: number | null;
  @Column({ type: 'text' }) changes: string;
  @Column({ name: 'request_id', type: 'varchar', length: 128, nullable: true }) requestId: string | null;
}
