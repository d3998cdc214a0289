import { SettingDefinition } from '../settings/settings.registry';

/** What a notification is about, with what a user gets unless it chose otherwise (docs/api/decisions.md §16). */
export interface NotificationKind {
  kind: string;
  description: string;
  /** Defaults of a user who set nothing. */
  email: boolean;
  inApp: boolean;
  /** Cannot be switched off in the feed. */
  mandatory?: boolean;
}

export const NOTIFICATION_KINDS = [
  { kind: 'leave.requested', description: 'a leave request waits for your decision', email: true, inApp: true },
  { kind: 'leave.decided', description: 'your leave request was decided', email: true, inApp: true },
  { kind: 'timesheet.submitted', description: 'a time entry waits for your decision', email: false, inApp: true },
  { kind: 'timesheet.decided', description: 'your time entry was decided', email: false, inApp: true },
  { kind: 'approval.step_decided', description: 'a request moved to a step you decide', email: true, inApp: true },
  { kind: 'approval.escalated', description: 'a request waited too long and you joined its approvers', email: true, inApp: true },
  {
    kind: 'employee.bank_account_changed',
    description: 'a bank account of yours was added, changed or removed',
    email: true,
    inApp: true,
    mandatory: true,
  },
  { kind: 'payroll.failed', description: 'a payroll failed to process', email: true, inApp: true },
  { kind: 'payslip.sent', description: 'your payslip was e-mailed to you', email: false, inApp: true, mandatory: true },
  { kind: 'document.expiring', description: 'a document is about to expire', email: true, inApp: true },
  { kind: 'document.expired', description: 'a document has expired', email: true, inApp: true },
  { kind: 'task.assigned', description: 'an administrator gave you a task', email: true, inApp: true },
  // Reminders of the daily job (settings Reminders: ... switch them on and say how early).
  { kind: 'reminder.birthday', description: 'someone you manage has a birthday today', email: false, inApp: true },
  { kind: 'reminder.anniversary', description: 'someone you manage has a work anniversary today', email: false, inApp: true },
  { kind: 'reminder.probation', description: "an employee's probation ends soon", email: true, inApp: true },
  { kind: 'reminder.contract', description: "an employee's contract ends soon", email: true, inApp: true },
  { kind: 'reminder.timesheet', description: 'you submitted no time entries last week', email: true, inApp: true },
] as const satisfies readonly NotificationKind[];

export type NotificationKindName = (typeof NOTIFICATION_KINDS)[number]['kind'];
export const NOTIFICATION_KIND_NAMES: readonly string[] = NOTIFICATION_KINDS.map((k) => k.kind);

export function kindOf(name: string): NotificationKind | undefined {
  return NOTIFICATION_KINDS.find((k) => k.kind === name);
}

/** The Admin's defaults of a notification kind for users who did not choose (issue 30). */
export const notifyByEmailSetting = (kind: string) => `Notify by E-mail: ${kind}`;
export const notifyInAppSetting = (kind: string) => `Notify In App: ${kind}`;

/** The settings of the kinds' defaults, which PreferencesService registers with settings/ at start. */
export function notificationKindSettings(): SettingDefinition[] {
  return (NOTIFICATION_KINDS as readonly NotificationKind[]).flatMap((k) => [
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
