import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { transaction } from '../../common/database/transaction';
import { recordEvent } from '../../common/outbox/outbox';
import { JobQueue } from '../../common/queue/job-queue.service';
import { defineJob, EnqueuedJob, JobContext } from '../../common/queue/queue.constants';
import { TemplateRenderError } from '../../common/template/template';
import { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { MailService, OutgoingMail as MailMessage, permanentSmtpFailure, smtpFailureReason } from '../mail.service';
import './mail.events';
import { MailSettledPayload } from './mail.events';
import { MAIL_STATES, OutgoingMail } from './outgoing-mail.entity';
import { MailToDispatch, OutgoingMailRepository } from './outgoing-mail.repository';

/** One outgoing e-mail's send job; 5 attempts, the first retry after MAIL_RETRY_BACKOFF_MS, doubling. */
export const MAIL_SEND_JOB = defineJob<{ id: number }>('mail', 'send', undefined, (d) => ({ mail: d.id }));
/** Queues the e-mails whose send_after has come, and any a lost job left queued. */
export const MAIL_OUTBOX_JOB = defineJob<Record<string, never>>('schedule', 'mail-outbox');
export const MAIL_OUTBOX_EVERY_MS = 30_000;
/** E-mails one sweep queues at most. */
const DUE_PER_RUN = 5000;

/** A new e-mail: its kind, its owner's key, and what the request fixed of it. */
export interface NewMail {
  purpose: string;
  ref: string;
  /** The request (a UUID): the same purpose, ref and request is one e-mail (the unique index). Default: a new one. */
  requestId?: string;
  address?: string | null;
  documentId?: number | null;
  sendAfter?: Date | null;
  requestedBy?: number | null;
}

/** What a composer makes of an e-mail when it is sent; `to` when the row has no address. */
export type ComposedMail = Omit<MailMessage, 'to' | 'attachments'> & { to?: string };

/**
 * A kind of e-mail, declared by the module that owns it: how it is composed when sent, and what its
 * outcome changes (in the transaction that settles the e-mail and records `mail.settled`).
 */
export interface MailKind {
  /** The e-mail, or `{ skip }` when there is nothing to send any more (it fails with that reason). */
  compose(mail: OutgoingMail): Promise<ComposedMail | { skip: string }>;
  /**
   * The owner's record of the outcome (a payslip's delivery status), with the settling transaction's
   * `em`: what a client reads of the e-mail is never behind it, and never ahead of it.
   */
  settled?(em: EntityManager, outcome: MailSettledPayload): Promise<void>;
}

/** A document's bytes as an attachment (the Documents module provides it; the mail module does not import it). */
export type AttachmentSource = (documentId: number) => Promise<{ filename: string; content: Buffer; contentType: string }>;

/**
 * The one mail outbox (issue 42): every e-mail the service sends is a row of `outgoing_mail`,
 * queued in the transaction of what asks for it, sent by one job, moved through MAIL_STATES. At
 * most one e-mail per row: the row is claimed (`sending`, committed) before the SMTP call and
 * settled after it; an attempt that finds it still `sending` (its process died in between) makes it
 * `unknown` and sends nothing. Settling records `mail.settled` and runs the kind's `settled` in
 * the same transaction, so the owner's status (payslip, user, notification) moves with the e-mail's.
 */
@Injectable()
export class MailOutbox implements OnModuleInit {
  private readonly logger = new Logger('Mail');
  private readonly kinds = new Map<string, MailKind>();
  private attachments: AttachmentSource | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly repository: OutgoingMailRepository,
    private readonly mail: MailService,
    private readonly jobs: JobQueue,
  ) {}

  onModuleInit(): void {
    this.jobs.register(
      MAIL_SEND_JOB,
      (data, ctx) => this.deliver(data.id, ctx),
      { attempts: 5, backoffMs: this.config.mailRetryBackoffMs },
      (data, reason) => this.abandon(data.id, reason),
    );
    this.jobs.register(MAIL_OUTBOX_JOB, () => this.queueDue());
    void this.jobs.schedule(MAIL_OUTBOX_JOB, MAIL_OUTBOX_EVERY_MS);
  }

  /** Whether e-mail can be sent here (SMTP_URL). */
  get enabled(): boolean {
    return this.mail.enabled;
  }

  /** Declares a kind of e-mail (its module does, in onModuleInit). */
  define(purpose: string, kind: MailKind): void {
    if (this.kinds.has(purpose)) throw new Error(`mail kind ${purpose} is defined twice`);
    this.kinds.set(purpose, kind);
  }

  /** Where attachments by document id are read (the Documents module sets it). */
  readAttachmentsWith(source: AttachmentSource): void {
    this.attachments = source;
  }

  /**
   * Queues e-mails with `em`, the transaction of what asks for them (INSERT IGNORE: a request
   * retried queues nothing twice). Call `dispatch` after the commit for those due now; the
   * scheduled sweep sends the others (and any whose job was lost).
   */
  async enqueue(em: EntityManager, mails: NewMail[]): Promise<void> {
    const now = new Date();
    await this.repository.insert(
      em,
      mails.map((m) => ({
        purpose: m.purpose,
        ref: m.ref,
        requestId: m.requestId ?? randomUUID(),
        status: 'queued' as const,
        address: m.address ?? null,
        documentId: m.documentId ?? null,
        sendAfter: m.sendAfter ?? null,
        requestedBy: m.requestedBy ?? null,
        createdAt: now,
      })),
    );
  }

  /** The e-mails of `purpose` still queued under these refs (and request): what to dispatch after the commit. */
  queuedOf(purpose: string, refs: string[], requestId?: string): Promise<MailToDispatch[]> {
    return refs.length ? this.repository.queuedOf(purpose, refs, requestId) : Promise.resolve([]);
  }

  /** Queues the send jobs of these e-mails (those due: a later send_after waits for the sweep); their jobs. */
  async dispatch(mails: readonly MailToDispatch[]): Promise<EnqueuedJob[]> {
    if (!this.mail.enabled) return [];
    const now = Date.now();
    const jobs: EnqueuedJob[] = [];
    for (const m of mails)
      if (!m.sendAfter || m.sendAfter.getTime() <= now)
        jobs.push(await this.jobs.add(MAIL_SEND_JOB, { id: m.id }, { jobId: jobIdOf(m) }));
    return jobs;
  }

  /** The scheduled sweep: queues what is due (a job id per e-mail: never twice at once). */
  async queueDue(now = new Date()): Promise<number> {
    if (!this.mail.enabled) return 0;
    const due = await this.repository.due(now, DUE_PER_RUN);
    await this.dispatch(due.map((m) => ({ ...m, sendAfter: null })));
    return due.length;
  }

  one(id: number): Promise<OutgoingMail | null> {
    return this.repository.one(id);
  }

  /** The send job: one row, at most one e-mail. */
  async deliver(id: number, ctx: JobContext): Promise<void> {
    const claimed = await MAIL_STATES.move(this.repository.manager, OutgoingMail, { id }, 'claim', { startedAt: new Date() });
    const mail = await this.one(id);
    if (!mail) return;
    if (!claimed) {
      // Claimed by an attempt that never settled: its process stopped around the SMTP call.
      if (mail.status === 'sending')
        await this.settle(
          mail,
          'lose',
          'the sending process stopped during the SMTP call: the e-mail may or may not have arrived; send it again to be sure',
        );
      return;
    }
    let message: MailMessage;
    try {
      const composed = await this.kindOf(mail.purpose).compose(mail);
      if ('skip' in composed) return void (await this.settle(mail, 'fail', composed.skip));
      const to = mail.address ?? composed.to;
      if (!to) return void (await this.settle(mail, 'fail', 'no address to send it to'));
      message = { ...composed, to };
      if (mail.documentId !== null) {
        if (!this.attachments) throw new Error('no reader of attachments is registered');
        message.attachments = [await this.attachments(mail.documentId)];
      }
    } catch (err) {
      if (err instanceof TemplateRenderError)
        return void (await this.settle(mail, 'fail', `the template could not be rendered: ${err.message}`));
      return this.retryOrFail(mail, ctx, err, `it could not be composed: ${(err as Error).message}`);
    }
    try {
      await this.mail.send(message);
    } catch (err) {
      return this.retryOrFail(mail, ctx, err, smtpFailureReason(err), permanentSmtpFailure(err));
    }
    await this.settle(mail, 'sent', null);
    this.logger.log(`${mail.purpose} e-mail sent (mail ${mail.id}, ${mail.purpose} ${mail.ref}, attempt ${ctx.attempt})`);
  }

  /**
   * The job was given up after its process died JOB_MAX_WORKER_DEATHS times: an e-mail still
   * queued failed; one claimed for sending may or may not have gone (`unknown`).
   */
  async abandon(id: number, reason: string): Promise<void> {
    const mail = await this.one(id);
    if (mail?.status === 'queued') await this.settle(mail, 'fail', `${reason}; send it again`);
    if (mail?.status === 'sending') await this.settle(mail, 'lose', `${reason}; send it again`);
  }

  /** A failed attempt: queued again for the retry (rethrown, so the job backs off), or failed for good. */
  private async retryOrFail(mail: OutgoingMail, ctx: JobContext, err: unknown, reason: string, permanent = false): Promise<void> {
    if (permanent || ctx.attempt >= ctx.attempts) {
      this.logger.warn(`${mail.purpose} e-mail ${mail.id} failed for good (attempt ${ctx.attempt}/${ctx.attempts}): ${reason}`);
      await this.settle(mail, 'fail', reason);
      return;
    }
    await MAIL_STATES.move(this.repository.manager, OutgoingMail, { id: mail.id, status: 'sending' }, 'requeue', {
      error: reason.slice(0, 500),
    });
    throw err;
  }

  /** The outcome, its event and the owner's record of it, in one transaction. */
  private async settle(mail: OutgoingMail, action: 'sent' | 'fail' | 'lose', error: string | null): Promise<void> {
    const finishedAt = new Date();
    await transaction(this.ds, async (em) => {
      if (
        !(await MAIL_STATES.move(em, OutgoingMail, { id: mail.id }, action, { error: error?.slice(0, 500) ?? null, finishedAt }))
      )
        return;
      const outcome: MailSettledPayload = {
        id: mail.id,
        purpose: mail.purpose,
        ref: mail.ref,
        request: mail.requestId,
        status: MAIL_STATES.transitions[action].to as MailSettledPayload['status'],
        error: error?.slice(0, 500) ?? null,
        finished_at: finishedAt.toISOString(),
      };
      await recordEvent(em, 'mail.settled', outcome);
      await this.kinds.get(mail.purpose)?.settled?.(em, outcome);
    });
  }

  private kindOf(purpose: string): MailKind {
    const kind = this.kinds.get(purpose);
    if (!kind) throw new Error(`no mail kind ${purpose} is defined`);
    return kind;
  }
}

/**
 * The send job's id names the row and its request's UUID: a row waiting in the queue is not queued
 * twice, and a finished job of another database behind the same QUEUE_PREFIX (a reset, a test
 * suite) never hides a new row that has its id.
 */
function jobIdOf(m: Pick<OutgoingMail, 'id' | 'requestId'>): string {
  return `mail-${m.id}-${m.requestId}`;
}
