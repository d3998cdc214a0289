/**
 * Results of an expensive read reused for a short time by reads with the same key. Equal reads
 * running at once share one promise; a failed read is not kept. At most `max` entries, the oldest
 * dropped. A time to live of 0 reads every time. What goes into the key decides what a result may
 * be reused for: owners put everything a result depends on there, or clear() after their writes.
 */
export class RecentResults<T> {
  private readonly entries = new Map<string, { until: number; value: Promise<T>; weight: number }>();
  private weight = 0;

  /**
   * `weigh` and `maxWeight` bound the results kept by what they hold (bytes, estimated by the
   * owner) besides their count: the oldest go until the rest fit; a result heavier than
   * `maxWeight` alone is served to the reads waiting for it and not kept.
   */
  constructor(
    private readonly ttlMs: number,
    private readonly max = 1000,
    private readonly weigh?: (value: T) => number,
    private readonly maxWeight = Infinity,
  ) {}

  get(key: string, read: () => Promise<T>): Promise<T> {
    if (!this.ttlMs) return read();
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value;
    const value = read();
    this.drop(key);
    const entry = { until: now + this.ttlMs, value, weight: 0 };
    this.entries.set(key, entry);
    if (this.entries.size > this.max) this.drop(this.entries.keys().next().value as string);
    value.then(
      (v) => {
        if (!this.weigh || this.entries.get(key) !== entry) return;
        entry.weight = this.weigh(v);
        this.weight += entry.weight;
        if (entry.weight > this.maxWeight) this.drop(key);
        for (const oldest of this.entries.keys()) {
          if (this.weight <= this.maxWeight) break;
          this.drop(oldest);
        }
      },
      () => this.entries.get(key) === entry && this.drop(key),
    );
    return value;
  }

  /** What the kept results weigh together (by `weigh`; 0 without it). */
  get held(): number {
    return this.weight;
  }

  /** Every result is read again (a read already running is not kept). */
  clear(): void {
    this.entries.clear();
    this.weight = 0;
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.weight -= entry.weight;
    this.entries.delete(key);
  }
}
