import { daysBetween } from '../common/time/days';
import { DocumentStatus } from './entities/document.entities';
import { DocumentType } from './entities/document-type.entity';

/** How many days before valid_until a document of the type is Expiring: its most distant reminder. */
export function expiringWindow(type: Pick<DocumentType, 'notifyDaysBefore'>): number {
  return Math.max(0, ...type.notifyDaysBefore);
}

/**
 * A document's status on `day`: No expiry without valid_until; Expired after it (valid_until is
 * its last valid day); Expiring from the type's first reminder on; Valid before.
 */
export function documentStatus(
  validUntil: string | null,
  type: Pick<DocumentType, 'notifyDaysBefore'>,
  day: string,
): DocumentStatus {
  if (!validUntil) return 'No expiry';
  const left = daysBetween(day, validUntil);
  if (left < 0) return 'Expired';
  return left <= expiringWindow(type) ? 'Expiring' : 'Valid';
}

/** The mark of the expired reminder (document.expired). */
export const EXPIRED_MARK = -1;

/**
 * The reminder due on `day` (one per document, version and mark): the nearest mark not yet passed
 * (a job that missed days makes only the latest one), EXPIRED_MARK once expired, null before the
 * first mark or without valid_until.
 */
export function dueMark(validUntil: string | null, type: Pick<DocumentType, 'notifyDaysBefore'>, day: string): number | null {
  if (!validUntil) return null;
  const left = daysBetween(day, validUntil);
  if (left < 0) return EXPIRED_MARK;
  const reached = type.notifyDaysBefore.filter((m) => m >= left);
  return reached.length ? Math.min(...reached) : null;
}
