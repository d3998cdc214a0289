import { declareSettings } from '../settings/settings.registry';

/** The reminders about employees' dates (declared when this file loads, settings/settings.registry.ts). */
export const REMINDER_BIRTHDAYS = 'Reminders: Birthdays';
export const REMINDER_ANNIVERSARIES = 'Reminders: Work Anniversaries';
export const REMINDER_PROBATION_DAYS = 'Reminders: Probation End Days';
export const REMINDER_CONTRACT_DAYS = 'Reminders: Contract End Days';

declareSettings(
  {
    name: REMINDER_BIRTHDAYS,
    group: 'Notifications',
    description: "Whether managers are reminded of their direct reports' birthdays, on the day.",
    default: 'No',
    values: ['Yes', 'No'],
  },
  {
    name: REMINDER_ANNIVERSARIES,
    group: 'Notifications',
    description: "Whether managers are reminded of their direct reports' work anniversaries (joined date), on the day.",
    default: 'No',
    values: ['Yes', 'No'],
  },
  {
    name: REMINDER_PROBATION_DAYS,
    group: 'Notifications',
    description:
      'How many days (0-365) before the end of probation (confirmation date) the manager and HR are reminded; 0: not at all.',
    default: '14',
    pattern: /^(0|[1-9]\d?|[12]\d\d|3[0-5]\d|36[0-5])$/,
    maxLength: 3,
  },
  {
    name: REMINDER_CONTRACT_DAYS,
    group: 'Notifications',
    description:
      'How many days (0-365) before the end of a contract (termination date) the manager and HR are reminded; 0: not at all.',
    default: '30',
    pattern: /^(0|[1-9]\d?|[12]\d\d|3[0-5]\d|36[0-5])$/,
    maxLength: 3,
  },
);
