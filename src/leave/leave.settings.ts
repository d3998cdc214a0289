import { declareSettings } from '../settings/settings.registry';

/** Leave's setting (declared when this file loads, settings/settings.registry.ts). */
export const WORK_WEEK = 'Work Week';
export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

declareSettings({
  name: WORK_WEEK,
  group: 'Leave',
  description: 'The days that count as working days for leave, comma-separated: Mon,Tue,Wed,Thu,Fri.',
  default: 'Mon,Tue,Wed,Thu,Fri',
  pattern: /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)(,(Mon|Tue|Wed|Thu|Fri|Sat|Sun)){0,6}$/,
  maxLength: 27,
});
