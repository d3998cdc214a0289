/** A page of a list; the envelope hook (common/envelope/envelope.hook.ts) turns it into the list envelope of docs/api/decisions.md §2. */
export class Page<T> {
  constructor(
    public readonly items: T[],
    public readonly total: number,
    public readonly page: number,
    public readonly limit: number,
  ) {}

  get nextPage(): number | null {
    return this.page * this.limit < this.total ? this.page + 1 : null;
  }

  map<U>(fn: (item: T) => U): Page<U> {
    return new Page(this.items.map(fn), this.total, this.page, this.limit);
  }
}
