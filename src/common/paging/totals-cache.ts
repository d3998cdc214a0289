import { RecentResults } from '../cache/recent-results';

/**
 * The `total` of a large list (an exact COUNT over every matching row: tens of milliseconds at
 * 100 000 employees on MariaDB, more than the page itself) reused for a short time by requests
 * that count the same rows: same SQL, same parameters, so the same scope, filters and search.
 * Equal counts running at once share one query. The owner clears it after each of its own writes,
 * so a process's totals are exact after its own changes; another process's changes show within
 * the time to live. At most `max` entries, the oldest dropped.
 */
export class TotalsCache extends RecentResults<number> {}
