import { Catalogue } from '../common/declarations/catalogue';

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
export const COMPANY_LOGO = 'Company Logo';
export const TIME_ZONE = 'Time Zone';

const catalogue = new Catalogue<SettingDefinition>('setting');

/**
 * Every declared setting: one array, kept up to date in place as modules declare theirs. The
 * platform's (below) come first, in the order written; then each module's, which it declares where
 * they are used (`declareSettings` in its `<module>.settings.ts`, so that a module never edits this
 * file), by group and then name.
 */
export const SETTINGS: SettingDefinition[] = [];
const PLATFORM = new Map<string, number>();

/** The order of GET /settings: the platform's first, as written; then by group, then by name. */
export function bySettingOrder(a: SettingDefinition, b: SettingDefinition): number {
  const [pa, pb] = [PLATFORM.get(a.name) ?? Infinity, PLATFORM.get(b.name) ?? Infinity];
  return pa !== pb ? pa - pb : a.group.localeCompare(b.group) || a.name.localeCompare(b.name);
}

catalogue.onChange(() => SETTINGS.splice(0, SETTINGS.length, ...catalogue.all().sort(bySettingOrder)));

/** Declares settings (when their module's file loads). The same name declared again must say the same. */
export function declareSettings(...definitions: SettingDefinition[]): void {
  for (const definition of definitions) catalogue.declare(definition.name, definition);
}

/** A module a mobile app may show (GET /meta/mobile-modules: the seed's key), switched by a Yes/No setting. */
export interface MobileModule {
  key: string;
  label: string;
}

const mobile = new Catalogue<MobileModule>('mobile module');

/** "Mobile App: Leaves" */
export const mobileModuleSetting = (label: string) => `Mobile App: ${label}`;

/** Declares a module's place in the mobile app and its setting (in its `<module>.module.ts`). */
export function declareMobileModule(module: MobileModule): void {
  mobile.declare(module.key, module);
  declareSettings({
    name: mobileModuleSetting(module.label),
    group: 'Mobile App',
    description: `Whether the mobile app shows the ${module.label} module (GET /meta/mobile-modules).`,
    default: 'Yes',
    values: ['Yes', 'No'],
  });
}

/** Every declared mobile module, by key. */
export function mobileModules(): MobileModule[] {
  return mobile.all();
}

const PLATFORM_SETTINGS: SettingDefinition[] = [
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
    name: COMPANY_LOGO,
    group: 'Company',
    description:
      'The logo payslip templates show as {{company.logo}}: a data: URI of a PNG, JPEG or WebP image (at most 48 KiB), or empty. Inline, because a payslip PDF loads nothing from the network.',
    default: '',
    pattern: /^(data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/]+={0,2})?$/,
    maxLength: 65_536,
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
];
PLATFORM_SETTINGS.forEach((definition, i) => PLATFORM.set(definition.name, i));
declareSettings(...PLATFORM_SETTINGS);
