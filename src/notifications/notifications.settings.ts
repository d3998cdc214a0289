import { declareSettings } from '../settings/settings.registry';

/** The digest's setting (declared when this file loads, settings/settings.registry.ts); each kind's defaults are registered at start (notification-kinds.ts). */
export const NOTIFICATION_DIGEST_HOUR = 'Notification Digest Hour';

declareSettings({
  name: NOTIFICATION_DIGEST_HOUR,
  group: 'Notifications',
  description: "The hour (0-23, in the user's time zone) of the daily digest e-mail for users who chose none.",
  default: '8',
  pattern: /^(\d|1\d|2[0-3])$/,
  maxLength: 2,
});
