import type { EntityManager } from 'typeorm';
import type { AnonymisedSubject } from './personal-data';

/** `value` as a LIKE pattern that matches it literally anywhere (escape character '!'). */
const containing = (value: string) => `%${value.replace(/[!%_]/g, (c) => `!${c}`)}%`;

/**
 * Replaces every personal value of `subject` by its name in the text columns of a table, in the
 * anonymisation's transaction: the rows of other people that mention the person (a notification
 * "Hugo Bauer submitted ...", a task's title). One UPDATE a column and value, each reading only
 * the rows whose text holds the value. `table` and `columns` are the caller's own (code, never input).
 */
export async function replaceInText(
  em: EntityManager,
  table: string,
  columns: readonly string[],
  subject: AnonymisedSubject,
): Promise<void> {
  for (const column of columns)
    for (const value of subject.values)
      await em.query(`UPDATE ${table} SET ${column} = REPLACE(${column}, ?, ?) WHERE ${column} LIKE ? ESCAPE '!'`, [
        value,
        subject.name,
        containing(value),
      ]);
}
