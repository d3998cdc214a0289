import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { StateMachine } from '../../common/state/state-machine';

/** Where an e-mail is: queued (waiting or retrying), sending (claimed, SMTP call under way), and the outcomes. */
export type OutgoingMailStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'unknown';

/**
 * What an outgoing e-mail may do (issue 42), one conditional UPDATE each: claimed before the SMTP
 * call (committed), queued again when the server did not accept it and a retry is due, settled
 * after it; found claimed by a later attempt (its process died around the call), it is `unknown`.
 */
export const MAIL_STATES = new StateMachine<OutgoingMailStatus, 'claim' | 'requeue' | 'sent' | 'fail' | 'lose'>('e-mail', {
  claim: { from: ['queued'], to: 'sending', verb: 'be sent' },
  requeue: { from: ['sending'], to: 'queued', verb: 'be queued again' },
  sent: { from: ['sending'], to: 'sent', verb: 'be sent' },
  fail: { from: ['queued', 'sending'], to: 'failed', verb: 'fail' },
  lose: { from: ['sending'], to: 'unknown', verb: 'be lost' },
});

/**
 * One outgoing e-mail of any kind (welcome, payslip, notification, digest): its owner (`purpose`
 * and `ref`, the owner's key), its address when known at queueing, its attachment by document id,
 * and its state. What it says is composed by its purpose's composer when it is sent, so secrets
 * (a temporary password) are never at rest and templates are those in force then.
 */
@Entity('outgoing_mail')
@Index('uq_outgoing_mail_owner', ['purpose', 'ref', 'requestId'], { unique: true })
@Index('ix_outgoing_mail_due', ['status', 'sendAfter'])
export class OutgoingMail {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  /** The kind of e-mail: its composer and its settling reaction. */
  @Column({ type: 'varchar', length: 20 }) purpose: string;
  /** The owner's key of what is sent: a user id, a payslip id, a notification batch key. */
  @Column({ type: 'varchar', length: 80 }) ref: string;
  /** The request that queued it (a UUID): with purpose and ref, one e-mail per request however often it is retried. */
  @Column({ name: 'request_id', type: 'varchar', length: 64 }) requestId: string;
  @Column({ type: 'varchar', length: 16 }) status: OutgoingMailStatus;
  /** The address when the request fixed it (a payslip's); null: the composer finds it when sending. */
  @Column({ type: 'varchar', length: 255, nullable: true }) address: string | null;
  /** A document attached to it (a payslip's PDF). */
  @Column({ name: 'document_id', type: 'integer', nullable: true }) documentId: number | null;
  @Column({ name: 'send_after', type: 'datetime', nullable: true }) sendAfter: Date | null;
  @Column({ type: 'varchar', length: 500, nullable: true }) error: string | null;
  @Column({ name: 'requested_by', type: 'integer', nullable: true }) requestedBy: number | null;
  @Column({ name: 'created_at', type: 'datetime' }) createdAt: Date;
  @Column({ name: 'started_at', type: 'datetime', nullable: true }) startedAt: Date | null;
  @Column({ name: 'finished_at', type: 'datetime', nullable: true }) finishedAt: Date | null;
}
