/** Every setting the service knows, with its group, allowed values and default. */
export interface SettingDefinition {
  name: string;
  group: string;
  description: string;
  default: string;
  /** Allowed values; absent for free text. */
  values?: readonly string[];
  maxLength?: number;
}

export const ENABLE_REST_API = 'Enable Rest Api';
export const COMPANY_NAME = 'Company Name';

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
];

export function findSetting(name: string): SettingDefinition | undefined {
  return SETTINGS.find((s) => s.name.toLowerCase() === name.toLowerCase());
}
