/** Names kept per kind at most; more and the kind's are forgotten (a reference table is small; this bounds a large one). */
const KEPT = 10_000;

/**
 * The names of reference rows by id, kept in this process for `ttlMs` (SETTINGS_CACHE_MS): every
 * employee read by id names its nationality, on MariaDB a round trip and a pooled connection of
 * their own. A write through this process's ReferenceCrud forgets its kind at once (and a lookup
 * in flight then keeps nothing); another process's write is seen within `ttlMs`
 * (docs/operations.md, "Several instances"). A missing row is never kept: a row made since is found.
 */
export class ReferenceNames<K extends string> {
  private readonly kept = new Map<K, Map<number, { name: string; until: number }>>();
  private readonly generation = new Map<K, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly read: (kind: K, id: number) => Promise<string | null>,
  ) {}

  async nameOf(kind: K, id: number): Promise<string | null> {
    const now = Date.now();
    const kept = this.kept.get(kind)?.get(id);
    if (kept && kept.until > now) return kept.name;
    const generation = this.generation.get(kind) ?? 0;
    const name = await this.read(kind, id);
    if (name === null || this.ttlMs === 0 || (this.generation.get(kind) ?? 0) !== generation) return name;
    let byId = this.kept.get(kind);
    if (!byId) {
      byId = new Map<number, { name: string; until: number }>();
      this.kept.set(kind, byId);
    }
    if (byId.size >= KEPT) byId.clear();
    byId.set(id, { name, until: now + this.ttlMs });
    return name;
  }

  /** A row of `kind` was written: its names are read again. */
  forget(kind: K): void {
    this.generation.set(kind, (this.generation.get(kind) ?? 0) + 1);
    this.kept.delete(kind);
  }
}
