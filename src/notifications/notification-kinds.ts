import { NotificationKind, notificationKinds } from '../common/outbox/notification-kinds';
import { SettingDefinition } from '../settings/settings.registry';

/** The Admin's defaults of a notification kind for users who did not choose (issue 30). */
export const notifyByEmailSetting = (kind: string) => `Notify by E-mail: ${kind}`;
export const notifyInAppSetting = (kind: string) => `Notify In App: ${kind}`;

/**
 * The settings of the kinds' defaults, which PreferencesService registers with settings/ at start:
 * of every kind the modules declared (common/outbox/notification-kinds.ts).
 */
export function notificationKindSettings(): SettingDefinition[] {
  return notificationKinds().flatMap((k: NotificationKind) => [
    {
      name: notifyByEmailSetting(k.kind),
      group: 'Notifications',
      description: `Whether users who did not choose get an e-mail when ${k.description}.`,
      default: k.email ? 'Yes' : 'No',
      values: ['Yes', 'No'],
    },
    // A mandatory kind is always in the feed.
    ...(k.mandatory
      ? []
      : [
          {
            name: notifyInAppSetting(k.kind),
            group: 'Notifications',
            description: `Whether users who did not choose see it in their feed when ${k.description}.`,
            default: k.inApp ? 'Yes' : 'No',
            values: ['Yes', 'No'],
          },
        ]),
  ]);
}
