import { Inject, Injectable } from '@nestjs/common';
import { PassThrough, Readable } from 'node:stream';
import { AuthUser } from '../common/auth/auth-user';
import { DomainException, NotFoundException } from '../common/errors/domain.exception';
import { ListQueryDto } from '../common/paging/list-query.dto';
import { parseListQuery } from '../common/paging/list-request';
import { Page } from '../common/paging/page';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { NotificationDto } from './dto/notification.dto';
import { Notification } from './entities/notification.entities';
import { NotificationsHub } from './notifications-hub.service';
import { NOTIFICATION_LIST_SPEC, NotificationsRepository } from './notifications.repository';

export function toNotificationDto(n: Notification): NotificationDto {
  return {
    id: n.id,
    kind: n.kind,
    title: n.title,
    body: n.body,
    link: n.link,
    read: n.read,
    created_at: n.createdAt.toISOString(),
  };
}

/** Notifications sent on a stream's reconnection at most (older ones are in the feed). */
const RESUME_LIMIT = 100;

/** The caller's own feed (docs/api/decisions.md §16): another user's notification is 404. */
@Injectable()
export class NotificationsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: NotificationsRepository,
    private readonly hub: NotificationsHub,
  ) {}

  async feed(caller: AuthUser, query: ListQueryDto): Promise<Page<NotificationDto>> {
    return (await this.repository.feed(caller.id, parseListQuery(query, NOTIFICATION_LIST_SPEC))).map(toNotificationDto);
  }

  async unreadCount(caller: AuthUser): Promise<{ count: number }> {
    return { count: await this.repository.unread(caller.id) };
  }

  async read(caller: AuthUser, id: number): Promise<NotificationDto> {
    if (!(await this.repository.markRead(caller.id, id))) throw new NotFoundException('Notification');
    const [n] = await this.repository.byIds([id]);
    return toNotificationDto(n);
  }

  async readAll(caller: AuthUser): Promise<{ marked: number }> {
    return { marked: await this.repository.markAllRead(caller.id) };
  }

  /**
   * A Server-Sent Events stream of the caller's new notifications, each followed by its unread
   * count. With Last-Event-ID (a notification id) it first sends what came after it (up to 100);
   * without, the unread count. Events carry the notification id, so a client reconnecting with it
   * misses nothing and gets nothing twice. A comment line every NOTIFICATION_HEARTBEAT_MS keeps
   * proxies from closing it; at most NOTIFICATION_STREAMS_PER_USER open per user and process (429).
   */
  async stream(caller: AuthUser, lastEventId: string | undefined, closed: Promise<void>): Promise<Readable> {
    if (this.hub.openStreams(caller.id) >= this.config.notifications.streamsPerUser)
      throw new DomainException(
        'RATE_LIMITED',
        `At most ${this.config.notifications.streamsPerUser} open notification streams per user`,
      );
    const out = new PassThrough();
    let last = /^\d{1,10}$/.test(lastEventId ?? '') ? Number(lastEventId) : null;
    let sending = Promise.resolve();
    const write = (text: string) => {
      if (!out.destroyed) out.write(text);
    };
    const sendNew = () =>
      (sending = sending
        .then(async () => {
          if (last === null) return;
          const items = await this.repository.since(caller.id, last, RESUME_LIMIT);
          for (const n of items) {
            write(`id: ${n.id}\nevent: notification\ndata: ${JSON.stringify(toNotificationDto(n))}\n\n`);
            last = n.id;
          }
          if (items.length) write(`event: unread\ndata: ${JSON.stringify(await this.unreadCount(caller))}\n\n`);
        })
        .catch(() => undefined));
    const heartbeat = setInterval(() => write(': ping\n\n'), this.config.notifications.heartbeatMs);
    const end = () => {
      clearInterval(heartbeat);
      stop();
      out.end();
    };
    const stop = this.hub.listen(caller.id, () => void sendNew(), end);
    void closed.then(end);
    out.on('close', end);
    write('retry: 3000\n\n');
    if (last === null) {
      // A new stream starts after the newest notification the user has.
      last = await this.repository.newestId(caller.id);
      write(`event: unread\ndata: ${JSON.stringify(await this.unreadCount(caller))}\n\n`);
    } else await sendNew();
    return out;
  }
}
