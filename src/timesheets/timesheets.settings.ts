import { declareSettings } from '../settings/settings.registry';

/** The timesheet reminder's setting (declared when this file loads, settings/settings.registry.ts). */
export const REMINDER_TIMESHEETS = 'Reminders: Missing Time Entries';

declareSettings({
  name: REMINDER_TIMESHEETS,
  group: 'Notifications',
  description:
    'Whether employees who worked on projects in the three weeks before are reminded on Monday when they submitted no time entries the week before.',
  default: 'Yes',
  values: ['Yes', 'No'],
});
