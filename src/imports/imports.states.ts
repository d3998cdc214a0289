import { StateMachine } from '../common/state/state-machine';
import { ImportStatus } from './entities/import.entities';

/** States an import ends in: its job does nothing more. */
export const FINISHED: readonly ImportStatus[] = ['Validated', 'Completed', 'Failed'];

export type ImportAction = 'validate' | 'import' | 'validated' | 'complete' | 'fail' | 'commit' | 'remove';

/**
 * An import's states (ARCHITECTURE §17). A job's attempt takes the import from Queued, or from the
 * state a dead attempt left it in (validate, import); a dry run that validated is committed back
 * to Queued for its import job.
 */
export const IMPORT_STATES = new StateMachine<ImportStatus, ImportAction>('import', {
  validate: { from: ['Queued', 'Validating'], to: 'Validating', verb: 'be validated' },
  import: { from: ['Queued', 'Importing'], to: 'Importing', verb: 'be imported' },
  validated: { from: ['Validating'], to: 'Validated', verb: 'end its validation' },
  complete: { from: ['Importing'], to: 'Completed', verb: 'complete' },
  fail: { from: ['Queued', 'Validating', 'Importing'], to: 'Failed', verb: 'fail' },
  commit: { from: ['Validated'], to: 'Queued', verb: 'be committed (only a validated dry run is)' },
  remove: { from: ['Validated', 'Completed', 'Failed'], to: null, verb: 'be deleted while its job runs' },
});
