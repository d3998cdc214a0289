/**
 * Results of an expensive read reused for a short time by reads with the same key. Equal reads
 * running at once share one promise; a failed read is not kept. At most `max` entries, the oldest
 * dropped. A time to live of 0 reads every time. What goes into the key decides what a result may
 * be reused for: owners put everything a result depends on there, or clear() after their writes.
 */
export class RecentResults<T> {
  private readonly entries = new Map<string, { until: number; value: Promise<T> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly max = 1000,
  ) {}

  get(key: string, read: () => Promise<T>): Promise<T> {
    if (!this.ttlMs) return read();
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value;
    const value = read();
    this.entries.delete(key);
    this.entries.set(key, { until: now + this.ttlMs, value });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
    value.catch(() => this.entries.get(key)?.value === value && this.entries.delete(key));
    return value;
  }

  /** Every result is read again (a read already running is not kept). */
  clear(): void {
    this.entries.clear();
  }
}
