import { defineJob } from '../common/queue/queue.constants';

/** Removes stored files queued for removal (a deleted document, a deleted employee's), right after the deletion. */
export const REMOVE_DOCUMENT_FILES_JOB = defineJob<Record<string, never>>('documents', 'remove-files', {
  attempts: 5,
  backoffMs: 10_000,
});
/** The same, hourly: whatever a failed removal (a store that was down) left behind, retried until it is gone. */
export const RETRY_DOCUMENT_FILE_REMOVALS_JOB = defineJob<Record<string, never>>('schedule', 'documents-remove-files');
export const RETRY_DOCUMENT_FILE_REMOVALS_EVERY_MS = 3600_000;

/** Marks documents Expiring and Expired and makes their reminders: daily, and a minute after a start. */
export const DOCUMENT_EXPIRY_JOB = defineJob<Record<string, never>>('schedule', 'documents-expiry');
export const DOCUMENT_EXPIRY_EVERY_MS = 24 * 3600_000;
