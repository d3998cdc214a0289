import { EntityManager, EntityTarget, FindOptionsWhere, In, IsNull, Not, ObjectLiteral } from 'typeorm';

/*
 * Retention by policy (issue 69, docs/api/privacy.md): a module that keeps a category of personal
 * data (contact, bank accounts, attendance...) declares it from its own folder with
 * `PersonalData.retain`, saying how many of a set of leavers' records a policy's action would
 * change and how it changes them. The privacy module's daily job and its preview name no module.
 */

export const RETENTION_ACTIONS = ['anonymise', 'delete'] as const;
export type RetentionAction = (typeof RETENTION_ACTIONS)[number];

/**
 * The audit action of the retention job's own entries (one per leaver and category it changed): the
 * audit category keeps them, or each day's run would find new entries to delete.
 */
export const RETENTION_AUDIT_ACTION = 'retention';

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

/** Employees a statement names at most. */
export const RETENTION_CHUNK = 1000;

/** `ids` in slices a statement may name. */
export function* chunksOf<T>(ids: readonly T[], size = RETENTION_CHUNK): Generator<T[]> {
  for (let i = 0; i < ids.length; i += size) yield ids.slice(i, i + size);
}

/**
 * Rows of `entity` per employee of `employeeIds` (its `employeeId` property) matching any of
 * `where` (none: every row), by a GROUP BY a thousand employees at a time.
 */
export async function countByEmployee<T extends ObjectLiteral>(
  em: EntityManager,
  entity: EntityTarget<T>,
  employeeIds: readonly number[],
  where: ReadonlyArray<FindOptionsWhere<T>> = [{}],
  /** The property naming the employee. */
  key = 'employeeId',
): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const ids of chunksOf(employeeIds)) {
    const rows = await em
      .getRepository(entity)
      .createQueryBuilder('r')
      .select(`r.${key}`, 'employee_id')
      .addSelect('COUNT(*)', 'n')
      .where(where.map((w) => ({ ...w, [key]: In(ids) })))
      .groupBy(`r.${key}`)
      .getRawMany<{ employee_id: number | string; n: number | string }>();
    for (const r of rows) if (Number(r.n) > 0) out.set(Number(r.employee_id), Number(r.n));
  }
  return out;
}

/** The sum of a count's values. */
export const total = (counts: ReadonlyMap<number, number>) => [...counts.values()].reduce((a, b) => a + b, 0);

/** Rows of a table a category's action changes: their listed properties set to null, or (none listed) the rows deleted. */
export interface RowsRule {
  entity: EntityTarget<ObjectLiteral>;
  /** The property naming the employee (default `employeeId`). */
  key?: string;
  /** Properties set to null (the rows stay); absent: the rows are deleted. */
  clear?: readonly string[];
}

/**
 * A category whose actions are plain statements on the employees' rows: `anonymise` clears
 * columns of the rows that hold a value in one of them, `delete` deletes rows; what a statement
 * changed is what it counts.
 */
export function rowsCategory(
  category: string,
  description: string,
  rules: Record<RetentionAction, readonly RowsRule[]>,
): RetentionCategory {
  const where = (rule: RowsRule): FindOptionsWhere<ObjectLiteral>[] =>
    rule.clear ? rule.clear.map((c) => ({ [c]: Not(IsNull()) })) : [{}];
  const count = async (em: EntityManager, employeeIds: readonly number[], action: RetentionAction) => {
    const out = new Map<number, number>();
    for (const rule of rules[action])
      for (const [id, n] of await countByEmployee(em, rule.entity, employeeIds, where(rule), rule.key))
        out.set(id, (out.get(id) ?? 0) + n);
    return out;
  };
  return {
    category,
    description,
    count,
    apply: async (em, employeeIds, action) => {
      let records = 0;
      for (const rule of rules[action])
        for (const ids of chunksOf(employeeIds)) {
          const criteria = where(rule).map((w) => ({ ...w, [rule.key ?? 'employeeId']: In(ids) }));
          const done = rule.clear
            ? await em.getRepository(rule.entity).update(criteria, Object.fromEntries(rule.clear.map((c) => [c, null])))
            : await em.getRepository(rule.entity).delete(criteria);
          records += done.affected ?? 0;
        }
      return { records };
    },
  };
}
