import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, LessThanOrEqual } from 'typeorm';
import { RecordSql, SAMPLE_MANAGER } from '../common/database/record-sql';
import { NotificationEmail, NotificationEmailStatus } from './entities/notification.entities';
import { fromSqlInstant, sqlInstant } from '../common/time/instants';

/** Rows per multi-row statement. */
const BATCH = 500;

export type NewNotificationEmail = Pick<
  NotificationEmail,
  'userId' | 'kind' | 'sourceKey' | 'title' | 'body' | 'link' | 'mode' | 'dueAt' | 'createdAt'
>;

/**
 * The SQL of notification e-mails (issue 30): rows written with their notifications, claimed under
 * a key (one conditional UPDATE) in the transaction that queues their outgoing e-mail in the mail
 * outbox, settled with that e-mail's outcome.
 */
@Injectable()
export class NotificationEmailsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** New e-mails, one per source and user whatever the number of dispatchers (INSERT IGNORE on the unique index). */
  async insert(em: EntityManager, rows: NewNotificationEmail[]): Promise<void> {
    for (let i = 0; i < rows.length; i += BATCH)
      await em
        .createQueryBuilder()
        .insert()
        .into(NotificationEmail)
        .values(
          rows
            .slice(i, i + BATCH)
            .map((r) => ({ ...r, title: r.title.slice(0, 300), body: r.body.slice(0, 2000), status: 'queued' as const })),
        )
        .orIgnore()
        .updateEntity(false)
        .execute();
  }

  /** Per user, the immediate e-mails written since `since` (the rate limit's count). */
  @RecordSql(SAMPLE_MANAGER, [1, 2], new Date('2026-11-26T09:00:00Z'))
  async immediateSince(em: EntityManager, userIds: number[], since: Date): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    for (let i = 0; i < userIds.length; i += 1000) {
      const rows = await em
        .getRepository(NotificationEmail)
        .createQueryBuilder('e')
        .select('e.user_id', 'user')
        .addSelect('COUNT(*)', 'n')
        .where('e.user_id IN (:...userIds)', { userIds: userIds.slice(i, i + 1000) })
        .andWhere("e.mode = 'immediate'")
        .andWhere('e.created_at >= :since', { since: sqlInstant(since) })
        .groupBy('e.user_id')
        .getRawMany<{ user: number; n: number | string }>();
      for (const r of rows) out.set(Number(r.user), Number(r.n));
    }
    return out;
  }

  /** Per user, when its earliest digest still queued goes out (a rate-limited e-mail joins it). */
  @RecordSql(SAMPLE_MANAGER, [1, 2])
  async pendingDigests(em: EntityManager, userIds: number[]): Promise<Map<number, Date>> {
    const out = new Map<number, Date>();
    for (let i = 0; i < userIds.length; i += 1000) {
      const rows = await em
        .getRepository(NotificationEmail)
        .createQueryBuilder('e')
        .select('e.user_id', 'user')
        .addSelect('MIN(e.due_at)', 'due')
        .where('e.user_id IN (:...userIds)', { userIds: userIds.slice(i, i + 1000) })
        .andWhere("e.mode = 'digest'")
        .andWhere("e.status = 'queued'")
        .groupBy('e.user_id')
        .getRawMany<{ user: number; due: string | Date }>();
      for (const r of rows) out.set(Number(r.user), fromSqlInstant(r.due));
    }
    return out;
  }

  /** Immediate e-mails due (queued), oldest first: their ids. */
  @RecordSql(new Date('2026-11-26T09:00:00Z'), 1000)
  async dueImmediate(now: Date, limit: number): Promise<number[]> {
    const rows = await this.ds.getRepository(NotificationEmail).find({
      select: { id: true },
      where: { status: 'queued', mode: 'immediate', dueAt: LessThanOrEqual(now) },
      order: { id: 'ASC' },
      take: limit,
    });
    return rows.map((r) => r.id);
  }

  /** Users with a digest due (its items queued), by the earliest item. */
  @RecordSql(new Date('2026-11-26T09:00:00Z'), 1000)
  async dueDigestUsers(now: Date, limit: number): Promise<number[]> {
    const rows = await this.ds
      .getRepository(NotificationEmail)
      .createQueryBuilder('e')
      .select('DISTINCT e.user_id', 'user')
      .where("e.status = 'queued'")
      .andWhere("e.mode = 'digest'")
      .andWhere('e.due_at <= :now', { now: sqlInstant(now) })
      .limit(limit)
      .getRawMany<{ user: number }>();
    return rows.map((r) => Number(r.user));
  }

  /** Claims one queued immediate e-mail under `key` (for its outgoing e-mail, in `em`); false when it is not queued. */
  @RecordSql(SAMPLE_MANAGER, 1, 'email:1')
  async claimOne(em: EntityManager, id: number, key: string): Promise<boolean> {
    const result = await em
      .getRepository(NotificationEmail)
      .update({ id, status: 'queued', mode: 'immediate' }, { status: 'sending', batchKey: key });
    return result.affected === 1;
  }

  /** Claims the user's queued digest items due by `now` under `key` (for their outgoing e-mail, in `em`); how many. */
  @RecordSql(SAMPLE_MANAGER, 1, new Date('2026-11-26T09:00:00Z'), 'digest:1:abc')
  async claimDigest(em: EntityManager, userId: number, now: Date, key: string): Promise<number> {
    const result = await em
      .getRepository(NotificationEmail)
      .update({ userId, status: 'queued', mode: 'digest', dueAt: LessThanOrEqual(now) }, { status: 'sending', batchKey: key });
    return result.affected ?? 0;
  }

  /** The e-mails claimed under `key`, oldest first. */
  @RecordSql('digest:1:abc')
  claimed(key: string): Promise<NotificationEmail[]> {
    return this.ds.getRepository(NotificationEmail).find({ where: { batchKey: key }, order: { id: 'ASC' } });
  }

  /** The outcome of the e-mails claimed under `key` (their outgoing e-mail's), in `em`. */
  @RecordSql(SAMPLE_MANAGER, 'digest:1:abc', 'sent', null)
  async settle(
    em: EntityManager,
    key: string,
    status: Exclude<NotificationEmailStatus, 'queued' | 'sending'>,
    error: string | null,
  ): Promise<void> {
    await em
      .getRepository(NotificationEmail)
      .update(
        { batchKey: key, status: 'sending' },
        { status, error: error?.slice(0, 500) ?? null, sentAt: status === 'sent' ? new Date() : null },
      );
  }
}
