import { Injectable } from '@nestjs/common';
import { AuthUser } from '../auth/auth-user';

/** A feed item before it is shown: its event name and parsed payload. */
export interface FeedItem {
  event: string;
  data: Record<string, unknown>;
}

/**
 * Whether the caller may read each item of a page (of one rule's events), as its module's REST
 * routes would let it; a rule may also take out of an item's `data` what the caller may not read
 * of it (the custom fields' values an employee event carries).
 */
export type FeedReadRule = (caller: AuthUser, items: FeedItem[]) => Promise<boolean[]>;

/**
 * What the change feed (GET /events) shows beyond its employee scope: a module whose resources a
 * caller may not read although it sees their employee (a document type hidden from managers,
 * users for Admins only) declares a rule for its events' prefix in onModuleInit. Without a rule an
 * event in the caller's employee scope is shown.
 */
@Injectable()
export class FeedReadRules {
  private readonly rules = new Map<string, FeedReadRule[]>();

  /** `prefix` such as "document." (the module's events); several rules of one prefix must all let an item through. */
  register(prefix: string, rule: FeedReadRule): void {
    const rules = this.rules.get(prefix) ?? [];
    rules.push(rule);
    this.rules.set(prefix, rules);
  }

  /** Which items the caller may read, in order. */
  async readable(caller: AuthUser, items: FeedItem[]): Promise<boolean[]> {
    const out = items.map(() => true);
    for (const [prefix, rule] of [...this.rules].flatMap(([p, rules]) => rules.map((r) => [p, r] as const))) {
      const at = items.flatMap((item, i) => (item.event.startsWith(prefix) ? [i] : []));
      if (!at.length) continue;
      const answers = await rule(
        caller,
        at.map((i) => items[i]),
      );
      at.forEach((i, k) => (out[i] &&= answers[k] === true));
    }
    return out;
  }
}
