import { defineJob } from '../common/queue/queue.constants';

export interface ImportJobData {
  importId: number;
}

/** Validating or importing one file (docs/api/decisions.md §13), on its own queue: a long import never delays a payroll run. */
export const IMPORT_JOB = defineJob<ImportJobData>('imports', 'run', { attempts: 3, backoffMs: 5000 }, (d) => ({
  import: d.importId,
}));

/** Runs again the imports whose job died with its process (the in-process runner has no stalled-job check of its own). */
export const RECOVER_IMPORTS_JOB = defineJob<Record<string, never>>('schedule', 'imports-recover-stalled');
export const RECOVER_IMPORTS_EVERY_MS = 60_000;

/** One job per import and phase: a retried add never runs it twice at once. */
export function importJobId(importId: number, phase: 'validate' | 'import', n = 0): string {
  return `import-${importId}-${phase}${n ? `-${n}` : ''}`;
}
