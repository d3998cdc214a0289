import { declareSettings } from '../settings/settings.registry';

/** Maintenance's setting (declared when this file loads, settings/settings.registry.ts). */
export const AUDIT_RETENTION_DAYS = 'Audit Log Retention Days';

declareSettings({
  name: AUDIT_RETENTION_DAYS,
  group: 'Other',
  description: 'How long (days, 1-36500) the audit log keeps a change; `hr maintenance:purge` deletes older entries.',
  default: '730',
  pattern: /^[1-9]\d{0,4}$/,
  maxLength: 5,
});
