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
}

export const ENABLE_REST_API = 'Enable Rest Api';
export const COMPANY_NAME = 'Company Name';
export const WORK_WEEK = 'Work Week';
export const PUNCH_BACKDATING_HOURS = 'Punch Back-dating Hours';
export const AUDIT_RETENTION_DAYS = 'Audit Log Retention Days';
export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

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
  ...MOBILE_MODULES.map((m) => ({
    name: mobileModuleSetting(m.label),
    group: 'Mobile App',
    description: `Whether the mobile app shows the ${m.label} module (GET /meta/mobile-modules).`,
    default: 'Yes',
    values: ['Yes', 'No'],
  })),
];

export function findSetting(name: string): SettingDefinition | undefined {
  return SETTINGS.find((s) => s.name.toLowerCase() === name.toLowerCase());
}
