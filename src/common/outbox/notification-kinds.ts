import { Catalogue } from '../declarations/catalogue';

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

const catalogue = new Catalogue<NotificationKind>('notification kind');

/**
 * Every declared kind's name, in name order: one array, kept up to date in place, so that what reads
 * it when a request or the OpenAPI document is made (an enumeration, a list filter) sees every module's.
 */
export const NOTIFICATION_KIND_NAMES: string[] = catalogue.names;

/** Declares a module's kinds (at import). The same kind declared again must say the same. */
export function declareNotificationKinds(kinds: Record<string, Omit<NotificationKind, 'kind'>>): void {
  for (const [kind, definition] of Object.entries(kinds)) catalogue.declare(kind, { kind, ...definition });
}

/** Calls `listener` with the kinds' names now and whenever a module declares more. */
export function onNotificationKinds(listener: (names: readonly string[]) => void): void {
  catalogue.onChange(listener);
}

export function notificationKind(name: string): NotificationKind | undefined {
  return catalogue.get(name);
}

/** Every declared kind, in name order. */
export function notificationKinds(): NotificationKind[] {
  return catalogue.all();
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
