import { declareSettings } from '../settings/settings.registry';

/** Attendance's setting (declared when this file loads, settings/settings.registry.ts). */
export const PUNCH_BACKDATING_HOURS = 'Punch Back-dating Hours';

declareSettings({
  name: PUNCH_BACKDATING_HOURS,
  group: 'Attendance',
  description:
    'How far in the past (hours, 0-168) a punch-in or punch-out may be placed; older corrections are made by an administrator.',
  default: '24',
  pattern: /^(0|[1-9]\d?|1[0-5]\d|16[0-8])$/,
  maxLength: 3,
});
