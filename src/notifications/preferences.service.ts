import { Injectable, OnModuleInit } from '@nestjs/common';
import { ValidationException } from '../common/errors/domain.exception';
import { TIME_ZONE } from '../settings/settings.registry';
import { NOTIFICATION_DIGEST_HOUR } from './notifications.settings';
import { SettingsService } from '../settings/settings.service';
import {
  NotificationPreferenceDto,
  NotificationSettingsDto,
  UpdateNotificationPreferenceDto,
  UpdateNotificationSettingsDto,
} from './dto/notification.dto';
import { NotificationPreference } from './entities/notification.entities';
import {
  NotificationKind,
  notificationKind,
  notificationKinds,
  NOTIFICATION_KIND_NAMES,
} from '../common/outbox/notification-kinds';
import { notificationKindSettings, notifyByEmailSetting, notifyInAppSetting } from './notification-kinds';
import { NotificationsRepository } from './notifications.repository';
import { knownTimeZone } from '../common/time/zones';

/** When a user's digest goes out: its hour and time zone. */
export interface DigestTime {
  hour: number;
  timeZone: string;
}

/**
 * Each user's choice per kind and channel (docs/api/decisions.md §16); a kind the user never set has the Admin's
 * defaults (settings *Notify by E-mail: kind*, *Notify In App: kind*). Mandatory kinds are always
 * in the feed.
 */
@Injectable()
export class PreferencesService implements OnModuleInit {
  constructor(
    private readonly repository: NotificationsRepository,
    private readonly settings: SettingsService,
  ) {}

  onModuleInit(): void {
    this.settings.register(notificationKindSettings());
    this.settings.addCheck(TIME_ZONE, (value) =>
      knownTimeZone(value) ? null : 'not a known time zone (an IANA name such as Europe/Berlin)',
    );
  }

  /** The Admin's defaults of a kind. */
  private async defaultsOf(k: NotificationKind): Promise<{ email: boolean; inApp: boolean }> {
    return {
      email: (await this.settings.get(notifyByEmailSetting(k.kind))) === 'Yes',
      inApp: k.mandatory === true || (await this.settings.get(notifyInAppSetting(k.kind))) === 'Yes',
    };
  }

  /** Every kind, as the user has it. */
  async of(userId: number): Promise<NotificationPreferenceDto[]> {
    const mine = new Map((await this.repository.preferencesOf([userId])).map((p) => [p.kind, p]));
    const out: NotificationPreferenceDto[] = [];
    for (const k of notificationKinds()) {
      const p = mine.get(k.kind);
      const defaults = await this.defaultsOf(k);
      out.push({
        kind: k.kind,
        description: k.description,
        email: p?.email ?? defaults.email,
        in_app: k.mandatory === true || (p?.inApp ?? defaults.inApp),
        frequency: p?.frequency ?? 'immediate',
        mandatory: k.mandatory === true,
      });
    }
    return out;
  }

  /** Changes the kinds given (the rest stays); a mandatory kind cannot be switched off in the feed. */
  async update(userId: number, items: UpdateNotificationPreferenceDto[]): Promise<NotificationPreferenceDto[]> {
    const current = new Map((await this.of(userId)).map((p) => [p.kind, p]));
    const problems = items.flatMap((item, i) => {
      const kind = notificationKind(item.kind);
      if (!kind)
        return [
          {
            field: `items[${i}].kind`,
            message: `is not a notification kind (${NOTIFICATION_KIND_NAMES.join(', ')})`,
          },
        ];
      if (kind.mandatory && item.in_app === false)
        return [{ field: `items[${i}].in_app`, message: `${kind.kind} cannot be switched off` }];
      return [];
    });
    if (problems.length) throw new ValidationException(problems);
    const rows: NotificationPreference[] = items.map((item) => {
      const now = current.get(item.kind)!;
      return Object.assign(new NotificationPreference(), {
        userId,
        kind: item.kind,
        email: item.email ?? now.email,
        inApp: item.in_app ?? now.in_app,
        frequency: item.frequency ?? now.frequency,
      });
    });
    await this.repository.savePreferences(rows);
    return this.of(userId);
  }

  /**
   * Of `userIds`, those who get `kind` in their feed, and those who get it by e-mail with how
   * often (`email` false: nobody by e-mail); one read of their choices.
   */
  async recipients(
    kind: string,
    userIds: number[],
    email: boolean,
  ): Promise<{ inApp: number[]; email: Map<number, 'immediate' | 'daily'> }> {
    const k = notificationKind(kind);
    const byEmail = new Map<number, 'immediate' | 'daily'>();
    if (!k || !userIds.length) return { inApp: [], email: byEmail };
    const defaults = await this.defaultsOf(k);
    const chosen = new Map(
      (await this.repository.preferencesOf(userIds)).filter((p) => p.kind === kind).map((p) => [p.userId, p]),
    );
    const inApp = k.mandatory ? userIds : userIds.filter((u) => chosen.get(u)?.inApp ?? defaults.inApp);
    if (email)
      for (const u of userIds) {
        const p = chosen.get(u);
        if (p?.email ?? defaults.email) byEmail.set(u, p?.frequency ?? 'immediate');
      }
    return { inApp, email: byEmail };
  }

  /** The user's digest hour and time zone as chosen (null: the company's). */
  async settingsOf(userId: number): Promise<NotificationSettingsDto> {
    const [mine] = await this.repository.userSettingsOf([userId]);
    const company = await this.companyDigestTime();
    return {
      digest_hour: mine?.digestHour ?? null,
      time_zone: mine?.timeZone ?? null,
      effective_digest_hour: mine?.digestHour ?? company.hour,
      effective_time_zone: knownTimeZone(mine?.timeZone) ?? company.timeZone,
    };
  }

  async updateSettings(userId: number, dto: UpdateNotificationSettingsDto): Promise<NotificationSettingsDto> {
    if (dto.time_zone && !knownTimeZone(dto.time_zone))
      throw ValidationException.field('time_zone', 'is not a known time zone (an IANA name such as Europe/Berlin)');
    const [mine] = await this.repository.userSettingsOf([userId]);
    // A field not given stays; null goes back to the company's.
    await this.repository.saveUserSettings({
      userId,
      digestHour: dto.digest_hour === undefined ? (mine?.digestHour ?? null) : dto.digest_hour,
      timeZone: dto.time_zone === undefined ? (mine?.timeZone ?? null) : dto.time_zone,
    });
    return this.settingsOf(userId);
  }

  /** When each user's digest goes out. */
  async digestTimes(userIds: number[]): Promise<Map<number, DigestTime>> {
    const company = await this.companyDigestTime();
    const mine = new Map((await this.repository.userSettingsOf(userIds)).map((s) => [s.userId, s]));
    return new Map(
      userIds.map((u) => {
        const s = mine.get(u);
        return [u, { hour: s?.digestHour ?? company.hour, timeZone: knownTimeZone(s?.timeZone) ?? company.timeZone }];
      }),
    );
  }

  private async companyDigestTime(): Promise<DigestTime> {
    return {
      hour: Number(await this.settings.get(NOTIFICATION_DIGEST_HOUR)),
      timeZone: knownTimeZone(await this.settings.get(TIME_ZONE)) ?? 'UTC',
    };
  }
}

/** The first instant after `now` when the clock in `timeZone` shows `hour`:00. */
export function nextLocalHour(now: Date, hour: number, timeZone: string): Date {
  const offsetAt = (at: Date) => {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      })
        .formatToParts(at)
        .map((p) => [p.type, p.value]),
    );
    const local = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);
    return { offset: local - Math.floor(at.getTime() / 1000) * 1000, y: +parts.year, m: +parts.month, d: +parts.day };
  };
  const today = offsetAt(now);
  for (let day = 0; day < 3; day++) {
    const wall = Date.UTC(today.y, today.m - 1, today.d + day, hour);
    // The wall time in UTC minus the zone's offset then (twice: the offset may change between).
    let at = wall - today.offset;
    at = wall - offsetAt(new Date(at)).offset;
    if (at > now.getTime()) return new Date(at);
  }
  return new Date(now.getTime() + 86_400_000);
}
