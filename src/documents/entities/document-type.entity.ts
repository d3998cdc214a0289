import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A kind of employee document (passport, work permit, contract): who sees it, whether it expires, when to remind. */
@Entity('document_types')
export class DocumentType {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ type: 'varchar', length: 100 }) name: string;
  /** Documents of this type carry a valid_until and are chased before it. */
  @Column({ type: 'boolean' }) expires: boolean;
  /** Reminders this many days before valid_until (and on the day), most distant first. */
  @Column({ name: 'notify_days_before', type: 'simple-json' }) notifyDaysBefore: number[];
  @Column({ name: 'visible_to_employee', type: 'boolean' }) visibleToEmployee: boolean;
  @Column({ name: 'visible_to_manager', type: 'boolean' }) visibleToManager: boolean;
  @Column({ name: 'employee_may_upload', type: 'boolean' }) employeeMayUpload: boolean;
  /** The service's own types ('payslip'): found by this code, never deleted. Null for an Admin's. */
  @Column({ type: 'varchar', length: 30, nullable: true }) code: string | null;
}
