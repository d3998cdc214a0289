import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const DOCUMENT_STATUSES = ['Valid', 'Expiring', 'Expired', 'No expiry'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** What a stored file of a document is (its current version's, or one version's). */
export interface DocumentFileFields {
  /** The random key in the file store; never the client's file name. */
  fileKey: string;
  fileName: string;
  contentType: string;
  size: number;
  sha256: string;
  validFrom: string | null;
  validUntil: string | null;
  uploadedBy: number | null;
}

/**
 * An employee's document (docs/api/decisions.md §14): its current version's file and validity are kept on the
 * row, so that lists over a million documents read one table.
 */
@Entity('documents')
export class DocumentRecord implements DocumentFileFields {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'employee_id', type: 'integer' }) employeeId: number;
  @Column({ name: 'document_type_id', type: 'integer' }) documentTypeId: number;
  @Column({ type: 'varchar', length: 200 }) name: string;
  @Column({ name: 'file_key', type: 'varchar', length: 64 }) fileKey: string;
  @Column({ name: 'file_name', type: 'varchar', length: 255 }) fileName: string;
  @Column({ name: 'content_type', type: 'varchar', length: 100 }) contentType: string;
  @Column({ type: 'integer' }) size: number;
  @Column({ type: 'varchar', length: 64 }) sha256: string;
  @Column({ name: 'valid_from', type: 'date', nullable: true }) validFrom: string | null;
  @Column({ name: 'valid_until', type: 'date', nullable: true }) validUntil: string | null;
  @Column({ type: 'varchar', length: 16 }) status: DocumentStatus;
  @Column({ type: 'integer' }) version: number;
  @Column({ type: 'text', nullable: true }) notes: string | null;
  @Column({ name: 'uploaded_by', type: 'integer', nullable: true }) uploadedBy: number | null;
  @CreateDateColumn({ name: 'created_at', type: 'datetime' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'datetime' }) updatedAt: Date;
}

/** Every file a document had, the current one included (version 1, 2, ...). */
@Entity('document_versions')
export class DocumentVersion implements DocumentFileFields {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'document_id', type: 'integer' }) documentId: number;
  @Column({ type: 'integer' }) version: number;
  @Column({ name: 'file_key', type: 'varchar', length: 64 }) fileKey: string;
  @Column({ name: 'file_name', type: 'varchar', length: 255 }) fileName: string;
  @Column({ name: 'content_type', type: 'varchar', length: 100 }) contentType: string;
  @Column({ type: 'integer' }) size: number;
  @Column({ type: 'varchar', length: 64 }) sha256: string;
  @Column({ name: 'valid_from', type: 'date', nullable: true }) validFrom: string | null;
  @Column({ name: 'valid_until', type: 'date', nullable: true }) validUntil: string | null;
  @Column({ name: 'uploaded_by', type: 'integer', nullable: true }) uploadedBy: number | null;
  @CreateDateColumn({ name: 'created_at', type: 'datetime' }) createdAt: Date;
}

/**
 * A reminder made: one per document, version and mark (days before valid_until; 0 = expired).
 * The unique index decides between two workers that reach the same mark at once.
 */
@Entity('document_reminders')
export class DocumentReminder {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'document_id', type: 'integer' }) documentId: number;
  @Column({ type: 'integer' }) version: number;
  @Column({ type: 'integer' }) mark: number;
  /** The run that made it (a worker reads back which of its inserts won). */
  @Column({ type: 'varchar', length: 36 }) run: string;
  @CreateDateColumn({ name: 'created_at', type: 'datetime' }) createdAt: Date;
}

/**
 * A stored file to remove: written in the transaction that deletes its rows (a document, or an
 * employee's), removed from the store by a job retried until it succeeds.
 */
@Entity('document_file_removals')
export class DocumentFileRemoval {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'file_key', type: 'varchar', length: 64 }) fileKey: string;
  @Column({ type: 'integer' }) attempts: number;
  @CreateDateColumn({ name: 'created_at', type: 'datetime' }) createdAt: Date;
}
