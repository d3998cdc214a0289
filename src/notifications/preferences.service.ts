import { Injectable } from '@nestjs/common';
import { ValidationException } from '../common/errors/domain.exception';
import { NotificationPreferenceDto, UpdateNotificationPreferenceDto } from './dto/notification.dto';
import { NotificationPreference } from './entities/notification.entities';
import { kindOf, NOTIFICATION_KINDS } from './notification-kinds';
import { NotificationsRepository } from './notifications.repository';

/** Each user's choice per kind and channel (API.md §16); a kind the user never set has its defaults. */
@Injectable()
export class PreferencesService {
  constructor(private readonly repository: NotificationsRepository) {}

  /** Every kind, as the user has it. */
  async of(userId: number): Promise<NotificationPreferenceDto[]> {
    const mine = new Map((await this.repository.preferencesOf([userId])).map((p) => [p.kind, p]));
    return NOTIFICATION_KINDS.map((k) => {
      const p = mine.get(k.kind);
      return {
        kind: k.kind,
        description: k.description,
        email: p?.email ?? k.email,
        in_app: p?.inApp ?? k.inApp,
        frequency: p?.frequency ?? 'immediate',
        mandatory: 'mandatory' in k && k.mandatory === true,
      };
    });
  }

  /** Changes the kinds given (the rest stays); a mandatory kind cannot be switched off in the feed. */
  async update(userId: number, items: UpdateNotificationPreferenceDto[]): Promise<NotificationPreferenceDto[]> {
    const current = new Map((await this.of(userId)).map((p) => [p.kind, p]));
    const problems = items.flatMap((item, i) => {
      const kind = kindOf(item.kind);
      if (!kind)
        return [
          {
            field: `items[${i}].kind`,
            message: `is not a notification kind (${NOTIFICATION_KINDS.map((k) => k.kind).join(', ')})`,
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

  /** Of `userIds`, those who get `kind` in their feed. */
  async inAppRecipients(kind: string, userIds: number[]): Promise<number[]> {
    const k = kindOf(kind);
    if (!k || !userIds.length) return [];
    if (k.mandatory) return userIds;
    const chosen = new Map(
      (await this.repository.preferencesOf(userIds)).filter((p) => p.kind === kind).map((p) => [p.userId, p.inApp]),
    );
    return userIds.filter((u) => chosen.get(u) ?? k.inApp);
  }
}
