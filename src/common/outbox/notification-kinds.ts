/**
 * The notification kinds (docs/api/decisions.md §16), declared by the module whose reaction or
 * reminder sends them, beside it (`declareNotificationKinds` at the top of its `*.reactions.ts` or
 * `*.reminders.ts`): a user's preferences, the Admin's default settings, the e-mail templates and the
 * OpenAPI enumeration are built from what was declared. A reaction that notifies, or a reminder
 * source, whose kind was never declared stops the application at start
 * (`assertNotificationKinds`), rather than dropping its notifications.
 */

/** What a notification is about, with what a user gets unless it chose otherwise. */
export interface NotificationKind {
  kind: string;
  description: string;
  /** Defaults of a user who set nothing. */
  email: boolean;
  inApp: boolean;
  /** Cannot be switched off in the feed. */
  mandatory?: boolean;
}

const catalogue = new Map<string, NotificationKind>();
const listeners: Array<(names: readonly string[]) => void> = [];

/**
 * Every declared kind's name, in name order: one array, kept up to date in place, so that what reads
 * it when a request or the OpenAPI document is made (an enumeration, a list filter) sees every module's.
 */
export const NOTIFICATION_KIND_NAMES: string[] = [];

/** Declares a module's kinds (at import). The same kind declared again must say the same. */
export function declareNotificationKinds(kinds: Record<string, Omit<NotificationKind, 'kind'>>): void {
  for (const [kind, definition] of Object.entries(kinds)) {
    const k: NotificationKind = { kind, ...definition };
    const known = catalogue.get(kind);
    if (known) {
      if (JSON.stringify(known) !== JSON.stringify(k))
        throw new Error(`notification kind ${kind} is declared twice, differently`);
      continue;
    }
    catalogue.set(kind, k);
    NOTIFICATION_KIND_NAMES.push(kind);
  }
  NOTIFICATION_KIND_NAMES.sort();
  for (const listener of listeners) listener(NOTIFICATION_KIND_NAMES);
}

/** Calls `listener` with the kinds' names now and whenever a module declares more. */
export function onNotificationKinds(listener: (names: readonly string[]) => void): void {
  listeners.push(listener);
  listener(NOTIFICATION_KIND_NAMES);
}

export function notificationKind(name: string): NotificationKind | undefined {
  return catalogue.get(name);
}

/** Every declared kind, in name order. */
export function notificationKinds(): NotificationKind[] {
  return NOTIFICATION_KIND_NAMES.map((name) => catalogue.get(name)!);
}

/** Throws, naming them, when any of `kinds` (what a module notifies) was never declared. */
export function assertNotificationKinds(kinds: Iterable<string>, by: string): void {
  const missing = [...kinds].filter((k) => !catalogue.has(k));
  if (missing.length)
    throw new Error(
      `notification kind ${missing.join(', ')}: sent by ${by} but declared by no module ` +
        '(declareNotificationKinds beside the reaction or reminder, docs/ARCHITECTURE.md)',
    );
}
