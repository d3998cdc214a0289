import { bicProblem, ibanProblem } from '../common/banking/iban';
import { USER_LEVELS, UserLevel } from '../common/auth/user-level';

/** The levels a setting value of the form "Admin,Restricted Admin" names (Require MFA, Require SSO). */
export function levelsIn(value: string): Set<UserLevel> {
  return new Set(
    value
      .split(',')
      .map((v) => v.trim() as UserLevel)
      .filter(Boolean),
  );
}

/** The "SCIM Group Levels" value as a map of group name → level (a valid value: see the check). */
export function parseScimGroupLevels(value: string): Map<string, UserLevel> {
  const parsed = JSON.parse(value) as Record<string, UserLevel>;
  return new Map(Object.entries(parsed));
}

function scimGroupLevelsProblem(value: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return 'must be a JSON object';
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'must be a JSON object';
  for (const [group, level] of Object.entries(parsed)) {
    if (!group.trim() || group.length > 255) return 'group names must be 1 to 255 characters';
    if (!(USER_LEVELS as readonly unknown[]).includes(level)) return `"${group}" must map to one of ${USER_LEVELS.join(', ')}`;
  }
  return null;
}

/** Every setting the service knows, with its group, allowed values and default. */
export interface SettingDefinition {
  name: string;
  group: string;
  description: string;
  default: string;
  /** Allowed values; absent for free text. */
  values?: readonly string[];
  maxLength?: number;
  /** Free text must match this. */
  pattern?: RegExp;
  /** What is wrong with a new value that passes the pattern (a checksum), or null. */
  check?: (value: string) => string | null;
}

export const ENABLE_REST_API = 'Enable Rest Api';
export const COMPANY_NAME = 'Company Name';
export const COMPANY_IBAN = 'Company IBAN';
export const COMPANY_BIC = 'Company BIC';
export const WORK_WEEK = 'Work Week';
export const REQUIRE_MFA = 'Require MFA';
export const REQUIRE_SSO = 'Require SSO';
export const SCIM_GROUP_LEVELS = 'SCIM Group Levels';
/** A comma-separated list of user levels, or empty. */
const LEVEL_LIST = /^((Admin|Restricted Admin|Manager|Employee)(,(Admin|Restricted Admin|Manager|Employee)){0,3})?$/;
export const PUNCH_BACKDATING_HOURS = 'Punch Back-dating Hours';
export const AUDIT_RETENTION_DAYS = 'Audit Log Retention Days';
export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
export const COMPANY_LOGO = 'Company Logo';
export const PAYSLIP_PAPER_SIZE = 'Payslip Paper Size';
export const PAYSLIP_PDF_PASSWORD = 'Payslip PDF Password';
export const PAYSLIP_EMAIL_ADDRESS = 'Payslip E-mail Address';
export const PAYSLIP_EMAIL_SUBJECT = 'Payslip E-mail Subject';
export const PAYSLIP_EMAIL_BODY = 'Payslip E-mail Body';
export const TIME_ZONE = 'Time Zone';
export const NOTIFICATION_DIGEST_HOUR = 'Notification Digest Hour';
export const REMINDER_BIRTHDAYS = 'Reminders: Birthdays';
export const REMINDER_ANNIVERSARIES = 'Reminders: Work Anniversaries';
export const REMINDER_PROBATION_DAYS = 'Reminders: Probation End Days';
export const REMINDER_CONTRACT_DAYS = 'Reminders: Contract End Days';
export const REMINDER_TIMESHEETS = 'Reminders: Missing Time Entries';

/** The payslip e-mail as shipped: Handlebars over the payslip's context (employee, payroll, company). */
export const DEFAULT_PAYSLIP_EMAIL_SUBJECT = 'Your payslip: {{payroll.name}}';
export const DEFAULT_PAYSLIP_EMAIL_BODY = [
  '<p>Dear {{employee.first_name}},</p>',
  '<p>your payslip for {{payroll.name}} ({{payroll.date_start}} to {{payroll.date_end}}) is attached as a PDF.',
  'It is also among your documents.</p>',
  '<p>{{company.name}}</p>',
].join('\n');

/** The modules a mobile app may show (GET /meta/mobile-modules), each switched by a Yes/No setting. */
export const MOBILE_MODULES = [
  { key: 'attendance', label: 'Attendance' },
  { key: 'leaves', label: 'Leaves' },
  { key: 'timesheets', label: 'Timesheets' },
  { key: 'staffdirectory', label: 'Staff Directory' },
  { key: 'payslips', label: 'Payslips' },
  { key: 'insights', label: 'Insights' },
  { key: 'tasks', label: 'Tasks' },
] as const;

/** "Mobile App: Leaves" */
export const mobileModuleSetting = (label: string) => `Mobile App: ${label}`;

/**
 * The settings of the platform and of modules that import settings/. A module that settings/ must
 * not import (notifications: its kinds) adds its own at start with SettingsService.register.
 */
export const SETTINGS: readonly SettingDefinition[] = [
  {
    name: ENABLE_REST_API,
    group: 'Other',
    description: 'While No, every API route answers 503 API_DISABLED (health probes excepted).',
    default: 'No',
    values: ['Yes', 'No'],
  },
  {
    name: COMPANY_NAME,
    group: 'Company',
    description: 'Shown in e-mails and payslips.',
    default: 'My Company',
    maxLength: 200,
  },
  {
    name: COMPANY_IBAN,
    group: 'Company',
    description:
      "The account salaries are paid from: the debtor of the payroll's bank file (ISO 13616, without spaces), or empty.",
    default: '',
    pattern: /^([A-Z]{2}[0-9]{2}[A-Z0-9]{1,30})?$/,
    maxLength: 34,
    check: (v) => (v === '' ? null : ibanProblem(v)),
  },
  {
    name: COMPANY_BIC,
    group: 'Company',
    description: "The BIC of the company's bank (ISO 9362, 8 or 11 characters), or empty (SEPA needs only the IBAN).",
    default: '',
    pattern: /^([A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?)?$/,
    maxLength: 11,
    check: (v) => (v === '' ? null : bicProblem(v)),
  },
  {
    name: REQUIRE_MFA,
    group: 'Security',
    description:
      'User levels that must sign in with a second factor, comma-separated (Admin,Restricted Admin), or empty. A user of such a level without a factor gets tokens that reach only /users/me/mfa until it has enrolled.',
    default: '',
    pattern: LEVEL_LIST,
    maxLength: 60,
  },
  {
    name: REQUIRE_SSO,
    group: 'Security',
    description:
      'User levels that must sign in through the OpenID Connect provider, comma-separated, or empty: the password grant answers 401 SSO_REQUIRED for them.',
    default: '',
    pattern: LEVEL_LIST,
    maxLength: 60,
  },
  {
    name: SCIM_GROUP_LEVELS,
    group: 'Security',
    description:
      'SCIM groups that give a user level, as JSON: {"HR Admins": "Restricted Admin", "HR": "Admin"}. A member of such groups gets the highest of their levels; one who leaves them all becomes Employee.',
    default: '{}',
    maxLength: 4000,
    check: (v) => scimGroupLevelsProblem(v),
  },
  {
    name: WORK_WEEK,
    group: 'Leave',
    description: 'The days that count as working days for leave, comma-separated: Mon,Tue,Wed,Thu,Fri.',
    default: 'Mon,Tue,Wed,Thu,Fri',
    pattern: /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)(,(Mon|Tue|Wed|Thu|Fri|Sat|Sun)){0,6}$/,
    maxLength: 27,
  },
  {
    name: PUNCH_BACKDATING_HOURS,
    group: 'Attendance',
    description:
      'How far in the past (hours, 0-168) a punch-in or punch-out may be placed; older corrections are made by an administrator.',
    default: '24',
    pattern: /^(0|[1-9]\d?|1[0-5]\d|16[0-8])$/,
    maxLength: 3,
  },
  {
    name: AUDIT_RETENTION_DAYS,
    group: 'Other',
    description: 'How long (days, 1-36500) the audit log keeps a change; `hr maintenance:purge` deletes older entries.',
    default: '730',
    pattern: /^[1-9]\d{0,4}$/,
    maxLength: 5,
  },
  {
    name: COMPANY_LOGO,
    group: 'Company',
    description:
      'The logo payslip templates show as {{company.logo}}: a data: URI of a PNG, JPEG or WebP image (at most 48 KiB), or empty. Inline, because a payslip PDF loads nothing from the network.',
    default: '',
    pattern: /^(data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/]+={0,2})?$/,
    maxLength: 65_536,
  },
  {
    name: PAYSLIP_PAPER_SIZE,
    group: 'Payroll',
    description: 'The page size of payslip PDFs.',
    default: 'A4',
    values: ['A4', 'Letter'],
  },
  {
    name: PAYSLIP_PDF_PASSWORD,
    group: 'Payroll',
    description:
      "Encrypts payslip PDFs (AES-256) with the employee's code (employee_id) or birthday (birthday, as DDMMYYYY); none: not encrypted. Applies to PDFs generated after the change.",
    default: 'none',
    values: ['none', 'employee_id', 'birthday'],
  },
  {
    name: PAYSLIP_EMAIL_ADDRESS,
    group: 'Payroll',
    description: "Where payslips are e-mailed: the employee's work or private e-mail.",
    default: 'work',
    values: ['work', 'private'],
  },
  {
    name: PAYSLIP_EMAIL_SUBJECT,
    group: 'Payroll',
    description: "The payslip e-mail's subject: a Handlebars template over the payslip's employee, payroll and company.",
    default: DEFAULT_PAYSLIP_EMAIL_SUBJECT,
    maxLength: 500,
  },
  {
    name: PAYSLIP_EMAIL_BODY,
    group: 'Payroll',
    description:
      "The payslip e-mail's HTML body: a Handlebars template over the payslip's employee, payroll and company (values escaped, no code run; the same rules as payslip templates).",
    default: DEFAULT_PAYSLIP_EMAIL_BODY,
    maxLength: 20_000,
  },
  {
    name: TIME_ZONE,
    group: 'Company',
    description:
      "The company's time zone (an IANA name such as Europe/Berlin): when daily digests and reminders go out for users who chose none.",
    default: 'UTC',
    pattern: /^[A-Za-z][A-Za-z0-9_+/-]{0,63}$/,
    maxLength: 64,
  },
  {
    name: NOTIFICATION_DIGEST_HOUR,
    group: 'Notifications',
    description: "The hour (0-23, in the user's time zone) of the daily digest e-mail for users who chose none.",
    default: '8',
    pattern: /^(\d|1\d|2[0-3])$/,
    maxLength: 2,
  },
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
  {
    name: REMINDER_TIMESHEETS,
    group: 'Notifications',
    description:
      'Whether employees who worked on projects in the three weeks before are reminded on Monday when they submitted no time entries the week before.',
    default: 'Yes',
    values: ['Yes', 'No'],
  },
  ...MOBILE_MODULES.map((m) => ({
    name: mobileModuleSetting(m.label),
    group: 'Mobile App',
    description: `Whether the mobile app shows the ${m.label} module (GET /meta/mobile-modules).`,
    default: 'Yes',
    values: ['Yes', 'No'],
  })),
];
