/**
 * A page of a feed read by cursor (GET /events): the items, and the cursor to pass as `after` for
 * the next page (the last item's; the same cursor when the page is empty: poll again with it).
 */
export class CursorPage<T> {
  constructor(
    public readonly items: T[],
    public readonly nextAfter: number,
  ) {}
}
