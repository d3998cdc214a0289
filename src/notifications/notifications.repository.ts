import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, MoreThan } from 'typeorm';
import { RecordSql } from '../common/database/record-sql';
import { findPage, ListRequest, ListSpec, sampleListRequest } from '../common/paging/list-request';
import { Page } from '../common/paging/page';
import {
  Notification,
  NotificationPreference,
  NotificationTemplate,
  NotificationUserSettings,
} from './entities/notification.entities';
import { NOTIFICATION_KIND_NAMES } from '../common/outbox/notification-kinds';
import { TEMPLATE_KINDS } from './notification-templates';

/** A user's feed: newest first. */
export const NOTIFICATION_LIST_SPEC: ListSpec = {
  idColumn: 'n.id',
  sortFields: { id: 'n.id', created_at: 'n.id' },
  defaultSort: { field: 'id', order: 'descend' },
  filterFields: {
    read: { column: 'n.is_read', type: 'boolean' },
    kind: { column: 'n.kind', type: 'string', values: NOTIFICATION_KIND_NAMES },
  },
};

export const NOTIFICATION_TEMPLATE_LIST_SPEC: ListSpec = {
  idColumn: 't.id',
  sortFields: { id: 't.id', kind: 't.kind', lang: 't.lang' },
  defaultSort: { field: 'id', order: 'ascend' },
  filterFields: {
    kind: { column: 't.kind', type: 'string', values: TEMPLATE_KINDS },
    lang: { column: 't.lang', type: 'string' },
  },
};

/** Rows per multi-row statement. */
const BATCH = 500;

/** The notifications' SQL (issue 30): the feed, read marks, preferences. */
@Injectable()
export class NotificationsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  @RecordSql(1, sampleListRequest(NOTIFICATION_LIST_SPEC, { filters: '{"read":false}' }))
  feed(userId: number, request: ListRequest): Promise<Page<Notification>> {
    const qb = this.ds.getRepository(Notification).createQueryBuilder('n').where('n.user_id = :userId', { userId });
    return findPage(qb, request);
  }

  @RecordSql(sampleListRequest(NOTIFICATION_TEMPLATE_LIST_SPEC, { filters: '{"kind":"digest"}' }))
  templates(request: ListRequest): Promise<Page<NotificationTemplate>> {
    return findPage(this.ds.getRepository(NotificationTemplate).createQueryBuilder('t'), request);
  }

  @RecordSql(1)
  unread(userId: number): Promise<number> {
    return this.ds.getRepository(Notification).count({ where: { userId, read: false } });
  }

  /** Marks one of the user's notifications read; false when the user has no such notification. */
  @RecordSql(1, 2)
  async markRead(userId: number, id: number): Promise<boolean> {
    const found = await this.ds.getRepository(Notification).findOne({ where: { id, userId }, select: { id: true, read: true } });
    if (!found) return false;
    if (!found.read)
      await this.ds.getRepository(Notification).update({ id, userId, read: false }, { read: true, readAt: new Date() });
    return true;
  }

  @RecordSql(1)
  async markAllRead(userId: number): Promise<number> {
    const result = await this.ds.getRepository(Notification).update({ userId, read: false }, { read: true, readAt: new Date() });
    return result.affected ?? 0;
  }

  /** The user's notifications after `afterId`, oldest first (a stream's catching up), at most `limit`. */
  @RecordSql(1, 10, 100)
  since(userId: number, afterId: number, limit: number): Promise<Notification[]> {
    return this.ds
      .getRepository(Notification)
      .find({ where: { userId, id: MoreThan(afterId) }, order: { id: 'ASC' }, take: limit });
  }

  /** The id of the user's newest notification, 0 without any (where a new stream starts). */
  @RecordSql(1)
  async newestId(userId: number): Promise<number> {
    const newest = await this.ds
      .getRepository(Notification)
      .findOne({ where: { userId }, order: { id: 'DESC' }, select: { id: true } });
    return newest?.id ?? 0;
  }

  @RecordSql([1, 2])
  byIds(ids: number[]): Promise<Notification[]> {
    return ids.length
      ? this.ds.getRepository(Notification).find({ where: { id: In(ids) }, order: { id: 'ASC' } })
      : Promise.resolve([]);
  }

  @RecordSql([1, 2])
  async preferencesOf(userIds: number[]): Promise<NotificationPreference[]> {
    const out: NotificationPreference[] = [];
    // An announcement to the whole company names every user: 1 000 a statement.
    for (let i = 0; i < userIds.length; i += 1000)
      out.push(
        ...(await this.ds.getRepository(NotificationPreference).find({ where: { userId: In(userIds.slice(i, i + 1000)) } })),
      );
    return out;
  }

  async savePreferences(rows: NotificationPreference[]): Promise<void> {
    if (rows.length) await this.ds.getRepository(NotificationPreference).upsert(rows, ['userId', 'kind']);
  }

  @RecordSql([1, 2])
  async userSettingsOf(userIds: number[]): Promise<NotificationUserSettings[]> {
    const out: NotificationUserSettings[] = [];
    for (let i = 0; i < userIds.length; i += 1000)
      out.push(
        ...(await this.ds.getRepository(NotificationUserSettings).find({ where: { userId: In(userIds.slice(i, i + 1000)) } })),
      );
    return out;
  }

  async saveUserSettings(row: NotificationUserSettings): Promise<void> {
    await this.ds.getRepository(NotificationUserSettings).upsert(row, ['userId']);
  }

  /**
   * New notifications, one per source and user whatever the number of dispatchers (INSERT IGNORE
   * on the unique index); the ids of those inserted now, by user.
   */
  async insert(
    em: EntityManager,
    rows: Array<Pick<Notification, 'userId' | 'kind' | 'title' | 'body' | 'link' | 'sourceKey'>>,
  ): Promise<Notification[]> {
    if (!rows.length) return [];
    for (let i = 0; i < rows.length; i += BATCH)
      await em
        .createQueryBuilder()
        .insert()
        .into(Notification)
        .values(
          rows.slice(i, i + BATCH).map((r) => ({ ...r, title: r.title.slice(0, 300), body: r.body.slice(0, 2000), read: false })),
        )
        .orIgnore()
        .updateEntity(false)
        .execute();
    const keys = [...new Set(rows.map((r) => r.sourceKey))];
    return em.getRepository(Notification).find({ where: { sourceKey: In(keys) }, order: { id: 'ASC' } });
  }
}
