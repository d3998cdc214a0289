import type { EntityManager } from 'typeorm';

/*
 * Retention by policy (issue 69, docs/api/privacy.md): a module that keeps a category of personal
 * data (contact, bank accounts, attendance...) declares it from its own folder with
 * `PersonalData.retain`, saying how many of a set of leavers' records a policy's action would
 * change and how it changes them. The privacy module's daily job and its preview name no module.
 */

export const RETENTION_ACTIONS = ['anonymise', 'delete'] as const;
export type RetentionAction = (typeof RETENTION_ACTIONS)[number];

/** What the action leaves to do once its transaction committed (files to remove from the store). */
export type AfterRetention = () => Promise<void>;

export interface RetentionCategory {
  /** The name a policy gives it: `contact`, `attendance`. */
  readonly category: string;
  /** What it covers, for the docs and the preview's readers. */
  readonly description: string;
  /** Per employee of `employeeIds`, how many records the action would change (absent: none). Reads only. */
  count(em: EntityManager, employeeIds: readonly number[], action: RetentionAction): Promise<Map<number, number>>;
  /** Applies the action to those employees' records, in the caller's transaction; returns how many it changed. */
  apply(
    em: EntityManager,
    employeeIds: readonly number[],
    action: RetentionAction,
  ): Promise<{ records: number; after?: AfterRetention }>;
}

/** Counts of rows per employee, from rows of `{employee_id, n}` (a GROUP BY). */
export function countsOf(rows: ReadonlyArray<{ employee_id: number | string; n: number | string }>): Map<number, number> {
  const out = new Map<number, number>();
  for (const r of rows) if (Number(r.n) > 0) out.set(Number(r.employee_id), Number(r.n));
  return out;
}
