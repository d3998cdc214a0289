import { declareSettings } from '../settings/settings.registry';

/** The default calendar's work week as a setting (declared when this file loads, settings/settings.registry.ts). */
export const WORK_WEEK = 'Work Week';
export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

declareSettings({
  name: WORK_WEEK,
  group: 'Leave',
  description:
    "The default calendar's working days, comma-separated: Mon,Tue,Wed,Thu,Fri (the same as its work_week, GET /calendars).",
  default: 'Mon,Tue,Wed,Thu,Fri',
  pattern: /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)(,(Mon|Tue|Wed|Thu|Fri|Sat|Sun)){0,6}$/,
  maxLength: 27,
});

/** "Mon,Tue,Fri" → [1, 2, 5] (ISO weekdays, each once, in order). */
export function isoWorkWeek(setting: string): number[] {
  const days = setting.split(',').map((d) => WEEKDAYS.indexOf(d as (typeof WEEKDAYS)[number]) + 1);
  return [...new Set(days.filter((d) => d > 0))].sort((a, b) => a - b);
}

/** [1, 2, 5] → "Mon,Tue,Fri". */
export const workWeekSetting = (days: readonly number[]): string => days.map((d) => WEEKDAYS[d - 1]).join(',');
