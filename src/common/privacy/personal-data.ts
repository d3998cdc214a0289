import { Injectable } from '@nestjs/common';
import { EntityManager, FindOperator, Raw } from 'typeorm';
import type { RetentionCategory } from './retention';
import type { SubjectExport } from './subject-export';

/*
 * An employee's personal data, wherever a module keeps it (issue 69, docs/api/privacy.md). Each
 * module that holds some registers a holder with `PersonalData` from its own folder (a provider's
 * constructor, as payroll inputs do): what personal values it keeps of the employee (what free text
 * elsewhere is searched for), and how it anonymises them. The privacy module runs them all in one
 * transaction and names no module.
 */

/** The employee being anonymised, as every holder sees it. */
export interface AnonymisedSubject {
  employeeId: number;
  /** "Former employee 17": what its names become. */
  name: string;
  /**
   * Its personal values as the holders found them before anything changed (names, e-mail
   * addresses, phone numbers, identity numbers, IBANs, personal custom fields): free text that
   * holds one of them (a notification, an audit entry, a payslip) has it replaced by `name` or
   * removed. Longest first, each at least 3 characters.
   */
  values: readonly string[];
  /**
   * Field names whose values are personal wherever an audit entry, an event or a history record of
   * the employee carries them (`first_name`, `iban`, a personal custom field's key): set to null.
   */
  keys: ReadonlySet<string>;
}

/** What a holder may leave to do once the anonymisation committed (files to remove from the store). */
export type AfterAnonymisation = () => Promise<void>;

/**
 * What a holder that wrote outside the database gives back: what to do once the anonymisation
 * committed, and what to undo when it does not (the files it stored for it: another holder failed
 * after it, the commit failed, or a deadlock victim's attempt runs again).
 */
export interface AnonymisationEffects {
  afterCommit?: AfterAnonymisation;
  ifRolledBack?: AfterAnonymisation;
}

export interface PersonalDataHolder {
  /** The module (in logs and errors). */
  readonly name: string;
  /**
   * When it runs: the records themselves first (10–49), then what refers to them (50–89), then the
   * logs that recorded the writes, the anonymisation's own included (90–99).
   */
  readonly order: number;
  /** The employee's personal values this module keeps, read before anything changes. */
  values?(em: EntityManager, employeeId: number): Promise<Array<string | null | undefined>>;
  /** Field names it keeps personal values under (beyond those it registered with), read before anything changes. */
  keys?(em: EntityManager): Promise<string[]>;
  /**
   * Anonymises what it keeps of the employee, in the anonymisation's transaction (none: what it
   * keeps is no personal value once the others are gone, as a leave request or an attendance record).
   */
  anonymise?(em: EntityManager, subject: AnonymisedSubject): Promise<AfterAnonymisation | AnonymisationEffects | void>;
  /** Writes what it keeps of the employee into the subject-access export (GDPR art. 15). */
  export?(em: EntityManager, employeeId: number, out: SubjectExport): Promise<void>;
}

/**
 * A condition on a column that names rows of `table` (users, expense claims, checklists) belonging
 * to `employeeIds` (its `employee_id`): how a module finds what it keeps under those rows.
 */
export function underEmployees(table: string, employeeIds: readonly number[]): FindOperator<number> {
  return Raw((column) => `${column} IN (SELECT id FROM ${table} WHERE employee_id IN (:...underEmployees))`, {
    underEmployees: [...employeeIds],
  }) as FindOperator<number>;
}

/** A value worth searching for in free text: trimmed, 3 characters or more. */
export function searchable(values: ReadonlyArray<string | null | undefined>): string[] {
  const out = new Set<string>();
  for (const v of values) {
    const t = typeof v === 'string' ? v.trim() : '';
    if (t.length >= 3) out.add(t);
  }
  return [...out].sort((a, b) => b.length - a.length || a.localeCompare(b));
}

/** `text` with every value of `subject` replaced by its name ("Former employee 17"). */
export function redactText(text: string, subject: AnonymisedSubject): string {
  let out = text;
  for (const v of subject.values) if (out.includes(v)) out = out.split(v).join(subject.name);
  return out;
}

/**
 * A JSON value with every string that holds a personal value replaced by `subject.name`, and the
 * values of the subject's personal `keys` (at any depth) set to null: an audit entry's or an event's
 * payload keeps its shape (who did what, when) without the person.
 */
export function redactJson(value: unknown, subject: AnonymisedSubject): unknown {
  if (typeof value === 'string') return redactText(value, subject);
  if (Array.isArray(value)) return value.map((v) => redactJson(v, subject));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      // defineProperty: a key "__proto__" (JSON.parse makes it an own key) stays a key, not the prototype.
      Object.defineProperty(out, k, {
        value: subject.keys.has(k) ? (Array.isArray(v) ? v.map(() => null) : null) : redactJson(v, subject),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

/** A JSON text redacted as redactJson does (unparsable text: as text). */
export function redactJsonText(text: string, subject: AnonymisedSubject): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return redactText(text, subject);
  }
  return JSON.stringify(redactJson(parsed, subject));
}

/** The holders, registered by their modules' providers when the application is built. */
@Injectable()
export class PersonalData {
  private readonly holders: PersonalDataHolder[] = [];
  /** Field names whose values are personal wherever a payload or audit entry carries them (`first_name`, `iban`). */
  private readonly keys = new Set<string>();

  register(holder: PersonalDataHolder, personalKeys: readonly string[] = []): void {
    if (this.holders.some((h) => h.name === holder.name)) throw new Error(`personal data holder ${holder.name} registered twice`);
    this.holders.push(holder);
    this.holders.sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
    for (const k of personalKeys) this.keys.add(k);
  }

  all(): readonly PersonalDataHolder[] {
    return this.holders;
  }

  private readonly categories = new Map<string, RetentionCategory>();

  /** A category of personal data a retention policy may name, declared by the module that keeps it. */
  retain(category: RetentionCategory): void {
    if (this.categories.has(category.category)) throw new Error(`retention category ${category.category} declared twice`);
    this.categories.set(category.category, category);
  }

  /** The declared retention categories, by name. */
  retentionCategories(): ReadonlyMap<string, RetentionCategory> {
    return this.categories;
  }

  /** Every personal key the holders declared. */
  personalKeys(): ReadonlySet<string> {
    return this.keys;
  }

  /** The declared personal keys and those the holders keep today (a personal custom field's key). */
  async keysNow(em: EntityManager): Promise<Set<string>> {
    const keys = new Set(this.keys);
    for (const holder of this.holders) if (holder.keys) for (const k of await holder.keys(em)) keys.add(k);
    return keys;
  }
}
