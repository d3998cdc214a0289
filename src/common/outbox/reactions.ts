import { Injectable } from '@nestjs/common';
import { ChangeEventPayload, OutboxEventName, OutboxEventPayloads } from './outbox';

/**
 * Who hears of something, by role (issue 42): the one set of recipient rules reactions and
 * reminders name, resolved to active users by users/recipients.service.ts.
 */
export type RecipientRule =
  /** These users. */
  | { users: number[] }
  /** The employee's own users. */
  | { usersOf: number }
  /** Who decides the employee's leave and time entries: its supervisor's and approvers' users, else the Admins. */
  | { approversOf: number }
  /** The Admins. */
  | { admins: true }
  /** The HR of the employee's department: its or a parent department's Restricted Admins, else the Admins. */
  | { hrOf: number }
  /** The HR of a department (null: the Admins). */
  | { hrOfDepartment: number | null };

/** What an event tells whom in the feed and by e-mail (its kind is the event's name, declared with declareNotificationKinds). */
export interface NotificationMessage {
  to: RecipientRule[];
  title: string;
  body: string;
  /** An API path under the prefix (`/leaves/5`). */
  link: string | null;
}

/** A task the service opens itself: one per source record and user. */
export interface TaskToOpen {
  /** The kind of task (declared with declareTaskSources): `leave-approval`, ... */
  source: string;
  sourceId: number;
  to: RecipientRule[];
  title: string;
  description: string;
  priority?: 'Low' | 'Normal' | 'High';
  dueDate?: string | null;
  /** An API path under the prefix. */
  link: string | null;
}

/** Tasks an event completes: every open task of these source records. */
export interface TasksToComplete {
  source: string;
  sourceIds: number[];
}

/** What an event does to the task lists; completions apply before openings. */
export interface TaskChanges {
  open?: TaskToOpen[];
  complete?: TasksToComplete[];
}

/**
 * A module's reaction to one of its own events (issue 42), declared in its `<module>.reactions.ts`:
 * the notification it sends and the tasks it opens or completes. The notifications and tasks
 * subscribers of the outbox relay call them; they know no producing module.
 */
export interface Reaction<E extends OutboxEventName> {
  notify?(data: OutboxEventPayloads[E], eventId: string): Promise<NotificationMessage | null>;
  tasks?(data: OutboxEventPayloads[E], eventId: string): Promise<TaskChanges>;
}

type AnyReaction = Reaction<OutboxEventName>;

/** The reactions by event, declared by the modules at start (onModuleInit). */
@Injectable()
export class Reactions {
  private readonly byEvent = new Map<string, AnyReaction[]>();

  on<E extends OutboxEventName>(event: E, reaction: Reaction<E>): void {
    const list = this.byEvent.get(event) ?? [];
    list.push(reaction);
    this.byEvent.set(event, list);
  }

  of(event: string): readonly AnyReaction[] {
    return this.byEvent.get(event) ?? [];
  }

  /** The events that have a reaction (the docs' and tests' list). */
  events(): string[] {
    return [...this.byEvent.keys()].sort();
  }

  /** The events a reaction notifies of: each must be a declared notification kind (notification-kinds.ts). */
  notifying(): string[] {
    return [...this.byEvent].filter(([, list]) => list.some((r) => r.notify !== undefined)).map(([event]) => event);
  }
}

/** A reminder of the day (birthdays, probation ends, ...): its notification kind, recipients and text, once per source key. */
export interface DueReminder {
  kind: string;
  to: RecipientRule[];
  title: string;
  body: string;
  link: string | null;
  /** `reminder:<kind>:<employee>:<day>`: one notification per source and user, whatever the runs. */
  sourceKey: string;
}

/** A module's date-driven reminders (`<module>.reminders.ts`): those due on `today` (YYYY-MM-DD, the company's day). */
export type ReminderSource = (today: string) => Promise<DueReminder[]>;

/**
 * The modules' reminder sources, declared at start with the notification kinds they send (each a
 * declared kind, checked at start); the notifications' hourly job asks each for the day's reminders.
 */
@Injectable()
export class Reminders {
  private readonly sources = new Map<string, { source: ReminderSource; kinds: readonly string[] }>();

  declare(name: string, kinds: readonly string[], source: ReminderSource): void {
    this.sources.set(name, { source, kinds });
  }

  all(): ReadonlyMap<string, { source: ReminderSource; kinds: readonly string[] }> {
    return this.sources;
  }
}

/** The new value of a changed field of a change event (`status` → "Approved"); null when it did not change. */
export function changedTo(p: ChangeEventPayload, field: string): string | null {
  const after = p.changes[field]?.[1];
  return typeof after === 'string' || typeof after === 'number' ? String(after) : null;
}

/** " from 2026-12-01 to 2026-12-03" or " for 2026-12-01" when the change carries dates, else "". */
export function rangeOf(p: ChangeEventPayload): string {
  const start = changedTo(p, 'date_start')?.slice(0, 10) ?? changedTo(p, 'date')?.slice(0, 10) ?? null;
  const end = changedTo(p, 'date_end')?.slice(0, 10) ?? null;
  if (!start) return '';
  return end && end !== start ? ` from ${start} to ${end}` : ` for ${start}`;
}
