import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull, LessThanOrEqual } from 'typeorm';
import { RecordSql } from '../../common/database/record-sql';
import { OutgoingMail } from './outgoing-mail.entity';

/** Rows per multi-row statement. */
const BATCH = 500;

/** What a send job needs to be queued: the row, its request (the job id), when it is due. */
export type MailToDispatch = Pick<OutgoingMail, 'id' | 'requestId' | 'sendAfter'>;

/** The SQL of the mail outbox (issue 42). */
@Injectable()
export class OutgoingMailRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** New e-mails with `em` (INSERT IGNORE on the owner's unique key: a request retried queues nothing twice). */
  async insert(em: EntityManager, rows: Array<Omit<OutgoingMail, 'id' | 'error' | 'startedAt' | 'finishedAt'>>): Promise<void> {
    for (let i = 0; i < rows.length; i += BATCH)
      await em
        .createQueryBuilder()
        .insert()
        .into(OutgoingMail)
        .values(rows.slice(i, i + BATCH))
        .orIgnore()
        .updateEntity(false)
        .execute();
  }

  /** The e-mails of `purpose` still queued under these refs (and request), oldest first. */
  @RecordSql('payslip', ['1', '2'], '00000000-0000-0000-0000-000000000000')
  async queuedOf(purpose: string, refs: string[], requestId?: string): Promise<MailToDispatch[]> {
    const out: MailToDispatch[] = [];
    // BATCH refs a statement: a payroll of 100 000 payslips stays under SQLite's bound on parameters.
    for (let i = 0; i < refs.length; i += BATCH)
      out.push(
        ...(await this.ds.getRepository(OutgoingMail).find({
          select: { id: true, requestId: true, sendAfter: true },
          where: { purpose, ref: In(refs.slice(i, i + BATCH)), status: 'queued', ...(requestId ? { requestId } : {}) },
          order: { id: 'ASC' },
        })),
      );
    return out;
  }

  /** Queued e-mails due by `now` (send_after passed or none), oldest first. */
  @RecordSql(new Date('2026-11-28T08:00:00Z'), 500)
  due(now: Date, limit: number): Promise<MailToDispatch[]> {
    return this.ds.getRepository(OutgoingMail).find({
      select: { id: true, requestId: true, sendAfter: true },
      where: [
        { status: 'queued', sendAfter: IsNull() },
        { status: 'queued', sendAfter: LessThanOrEqual(now) },
      ],
      order: { id: 'ASC' },
      take: limit,
    });
  }

  @RecordSql(1)
  one(id: number): Promise<OutgoingMail | null> {
    return this.ds.getRepository(OutgoingMail).findOne({ where: { id } });
  }

  /** The manager outside any transaction (the state machine's single-statement moves). */
  get manager(): EntityManager {
    return this.ds.manager;
  }
}
