import { defineJob } from '../common/queue/queue.constants';

export interface PersonalDataExportJobData {
  exportId: number;
}

/** Building one subject-access export's ZIP (issue 69), on the documents' queue: file work. */
export const PERSONAL_DATA_EXPORT_JOB = defineJob<PersonalDataExportJobData>(
  'documents',
  'personal-data-export',
  { attempts: 3, backoffMs: 5000 },
  (d) => ({ export: d.exportId }),
);

/** Every 10 minutes: expired exports' files removed; exports whose job died run again. */
export const PERSONAL_DATA_EXPORTS_SWEEP_JOB = defineJob<Record<string, never>>('schedule', 'personal-data-exports');
export const SWEEP_EVERY_MS = 10 * 60_000;

/** One job per export (and per recovery of it). */
export function exportJobId(exportId: number, suffix = ''): string {
  return `personal-data-export-${exportId}${suffix}`;
}
