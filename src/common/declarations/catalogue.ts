/**
 * What modules declare when their files load (notification kinds, approval kinds, import kinds, task
 * sources, extensions, OpenAPI tags, webhook events), one entry per name. `names` is one array, in
 * name order, kept up to date in place, so that what reads it when a request or the document is made
 * (an enumeration, a validator, a list filter) sees every module's. The same name declared again
 * must say the same.
 */
export class Catalogue<T> {
  readonly names: string[] = [];
  private readonly entries = new Map<string, T>();
  private readonly listeners: Array<(names: readonly string[]) => void> = [];

  /** `what`: how an error names an entry ("notification kind"). */
  constructor(private readonly what: string) {}

  /** Declares `entry` under `name`; true when it is new. */
  declare(name: string, entry: T): boolean {
    const before = this.entries.get(name);
    if (before !== undefined) {
      if (JSON.stringify(before) !== JSON.stringify(entry))
        throw new Error(`${this.what} ${name} is declared twice, differently`);
      return false;
    }
    this.entries.set(name, entry);
    this.names.push(name);
    this.names.sort();
    for (const listener of this.listeners) listener(this.names);
    return true;
  }

  get(name: string): T | undefined {
    return this.entries.get(name);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Every entry, in name order. */
  all(): T[] {
    return this.names.map((name) => this.entries.get(name)!);
  }

  /** Calls `listener` with the names now and whenever a module declares more. */
  onChange(listener: (names: readonly string[]) => void): void {
    this.listeners.push(listener);
    listener(this.names);
  }
}
