import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { DriverReader } from '../../common/database/driver-reader';
import { insertRows } from '../../common/database/insert-rows';
import { RecordSql, RecordSqlAs, SAMPLE_MANAGER } from '../../common/database/record-sql';
import { CustomField } from '../entities/custom-field.entity';
import { StoredValue } from './custom-field-codec';
import { CustomFieldValue } from './custom-field-value.entity';

/** A stored row as the reads return it. */
export type ValueRow = Pick<CustomFieldValue, 'fieldId' | 'employeeId' | 'item' | 'text'>;

/** Rows grouped by `key` (the employee, the field), each group in the rows' order. */
export function groupRows(rows: readonly ValueRow[], key: 'employeeId' | 'fieldId'): Map<number, ValueRow[]> {
  const out = new Map<number, ValueRow[]>();
  for (const r of rows) {
    const group = out.get(r[key]);
    if (group) group.push(r);
    else out.set(r[key], [r]);
  }
  return out;
}

/** How many unique keys or employee ids one lookup names. */
const LOOKUP_CHUNK = 500;
/** An employee's values (GET /employees/{id}): one prepared statement. */
const ONE_EMPLOYEE = 'SELECT field_id, employee_id, item, value_text FROM custom_field_values WHERE employee_id = ?';
/** How many employees' values one DELETE clears. */
const DELETE_CHUNK = 100;

/** A value's row as written: its field and employee with what the codec made of it. */
export type ValueInsert = StoredValue & { fieldId: number; employeeId: number };

/**
 * Rows in the order of the values' filter indexes (field, key, number, employee): an import's batch
 * inserted so walks each index once from left to right instead of jumping about it: its 200 000
 * values beside 3.1 million wrote in 0.95-0.98 s instead of 1.14-1.24 (docs/api/custom-fields.md).
 * Keys compare as SQLite's BINARY collation and MariaDB's binary order of ASCII do; either way the
 * order changes only the speed.
 */
export function inIndexOrder(a: ValueInsert, b: ValueInsert): number {
  if (a.fieldId !== b.fieldId) return a.fieldId - b.fieldId;
  if (a.key !== b.key) return a.key === null ? -1 : b.key === null ? 1 : a.key < b.key ? -1 : 1;
  if (a.number !== b.number) return a.number === null ? -1 : b.number === null ? 1 : a.number - b.number;
  return a.employeeId - b.employeeId;
}

/** The custom fields' values (issue 66): a row per employee and field, a multiselect's per option. */
@Injectable()
export class CustomFieldValuesRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * The rows of these fields for these employees, in one query (`em`: inside a transaction).
   * Outside one, read as plain arrays (DriverReader). `most`: the fields are most of those defined
   * (an employee's answer, an export's page): the employees' rows are read whole, each employee's
   * one range of the primary key, and the other fields' rows dropped here; naming the fields made
   * the database probe each (employee, field) pair (an export page of 4 000 employees: 84 ms
   * instead of 54 on SQLite). A list page's few fields are named.
   */
  @RecordSql(null, [1, 2], [10, 11])
  @RecordSqlAs('one employee', null, [1, 2], [10], true)
  @RecordSqlAs('most fields', null, [1, 2], [10, 11], true)
  async valuesOf(
    em: EntityManager | null,
    fieldIds: readonly number[],
    employeeIds: readonly number[],
    most = false,
  ): Promise<ValueRow[]> {
    if (!fieldIds.length || !employeeIds.length) return [];
    if (em)
      return em.getRepository(CustomFieldValue).find({
        select: { fieldId: true, employeeId: true, item: true, text: true },
        where: { fieldId: In([...fieldIds]), employeeId: In([...employeeIds]) },
      });
    const one = employeeIds.length === 1;
    const whole = one || most;
    const reader = DriverReader.of(this.ds);
    const rows = one
      ? await reader.rows(ONE_EMPLOYEE, [employeeIds[0]])
      : await reader.arrays(
          `SELECT field_id, employee_id, item, value_text FROM custom_field_values WHERE employee_id IN (:...employees)${
            whole ? '' : ' AND field_id IN (:...fields)'
          }`,
          { employees: employeeIds, fields: fieldIds },
        );
    const wanted = whole ? new Set(fieldIds) : null;
    const out: ValueRow[] = [];
    for (const [fieldId, employeeId, item, text] of rows) {
      const field = Number(fieldId);
      if (!wanted || wanted.has(field))
        out.push({ fieldId: field, employeeId: Number(employeeId), item: String(item), text: String(text) });
    }
    return out;
  }

  /**
   * Replaces employees' values of some fields with their rows (none: cleared), in one DELETE of
   * the employees that had values (`created`: a new employee, nothing to delete) and multi-row
   * INSERTs of every row.
   */
  @RecordSql(SAMPLE_MANAGER, [
    {
      employeeId: 10,
      created: false,
      fields: [{ fieldId: 1, rows: [{ item: '', text: 'M', key: 'M', number: null, unique: null }] }],
    },
  ])
  async replaceMany(
    em: EntityManager,
    writes: ReadonlyArray<{
      employeeId: number;
      created: boolean;
      fields: ReadonlyArray<{ fieldId: number; rows: readonly StoredValue[] }>;
    }>,
  ): Promise<void> {
    const cleared = writes.filter((w) => !w.created && w.fields.length);
    // One DELETE a chunk of employees, each with its changed fields (the primary key's columns).
    for (let i = 0; i < cleared.length; i += DELETE_CHUNK) {
      const params: Record<string, unknown> = {};
      const tests = cleared.slice(i, i + DELETE_CHUNK).map((w, n) => {
        params[`e${n}`] = w.employeeId;
        params[`f${n}`] = w.fields.map((f) => f.fieldId);
        return `(employee_id = :e${n} AND field_id IN (:...f${n}))`;
      });
      await em.createQueryBuilder().delete().from(CustomFieldValue).where(tests.join(' OR '), params).execute();
    }
    const rows = writes.flatMap((w) =>
      w.fields.flatMap((f) => f.rows.map((r) => ({ fieldId: f.fieldId, employeeId: w.employeeId, ...r }))),
    );
    await this.insert(em, rows.sort(inIndexOrder));
  }

  /** Replaces an employee's values of these fields (replaceMany of one; `created`: a new employee). */
  replace(
    em: EntityManager,
    employeeId: number,
    fields: ReadonlyArray<{ fieldId: number; rows: readonly StoredValue[] }>,
    created = false,
  ): Promise<void> {
    return this.replaceMany(em, [{ employeeId, created, fields }]);
  }

  /** Inserts rows in multi-row INSERTs (insertRows: TypeORM's builder took 1.6 s of CPU composing a 10 000-row import's 200 000 values). */
  insert(em: EntityManager, rows: ReadonlyArray<ValueInsert>): Promise<void> {
    return insertRows(em, CustomFieldValue, rows);
  }

  /** Who holds each of these unique values of the field (unique key → employee), by the unique index. */
  @RecordSql(1, ['a'.repeat(64), 'b'.repeat(64)])
  async uniqueOwners(fieldId: number, uniques: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (let i = 0; i < uniques.length; i += LOOKUP_CHUNK) {
      const rows = await this.ds.getRepository(CustomFieldValue).find({
        select: { employeeId: true, unique: true },
        where: { fieldId, unique: In(uniques.slice(i, i + LOOKUP_CHUNK)) },
      });
      for (const r of rows) out.set(r.unique!, r.employeeId);
    }
    return out;
  }

  /** How many employees hold each of these options of a select field. */
  @RecordSql(SAMPLE_MANAGER, 1, ['S', 'M'])
  async optionUse(em: EntityManager, fieldId: number, options: readonly string[]): Promise<Map<string, number>> {
    if (!options.length) return new Map();
    const rows = await em
      .getRepository(CustomFieldValue)
      .createQueryBuilder('v')
      .select('v.value_text', 'option')
      .addSelect('COUNT(*)', 'n')
      .where('v.field_id = :fieldId AND v.value_text IN (:...options)', { fieldId, options })
      .groupBy('v.value_text')
      .getRawMany<{ option: string; n: number | string }>();
    return new Map(rows.map((r) => [r.option, Number(r.n)]));
  }

  /** A field's rows after `afterEmployee`, `limit` employees' worth at most, in employee order (a type change reads them in batches). */
  @RecordSql(SAMPLE_MANAGER, 1, 0, 1000)
  batchOf(em: EntityManager, fieldId: number, afterEmployee: number, limit: number): Promise<ValueRow[]> {
    return em
      .getRepository(CustomFieldValue)
      .createQueryBuilder('v')
      .select(['v.fieldId', 'v.employeeId', 'v.item', 'v.text'])
      .where('v.field_id = :fieldId AND v.employee_id > :afterEmployee', { fieldId, afterEmployee })
      .andWhere(
        'v.employee_id <= (SELECT MAX(b.employee_id) FROM (SELECT DISTINCT w.employee_id FROM custom_field_values w ' +
          'WHERE w.field_id = :fieldId AND w.employee_id > :afterEmployee ORDER BY w.employee_id LIMIT :limit) b)',
        { limit },
      )
      .orderBy('v.employee_id')
      .addOrderBy('v.item')
      .getMany();
  }

  /** Deletes a field's rows of these employees (a type change writes them anew). */
  async deleteOf(em: EntityManager, fieldId: number, employeeIds: readonly number[]): Promise<void> {
    if (employeeIds.length) await em.delete(CustomFieldValue, { fieldId, employeeId: In([...employeeIds]) });
  }

  /** Clears the values of `employee` fields that point to this employee (it is being deleted). */
  @RecordSql(SAMPLE_MANAGER, 10)
  async clearReferencesTo(em: EntityManager, employeeId: number): Promise<void> {
    await em
      .createQueryBuilder()
      .delete()
      .from(CustomFieldValue)
      .where('value_number = :employeeId', { employeeId })
      .andWhere(`field_id IN (${em.createQueryBuilder(CustomField, 'f').select('f.id').where("f.type = 'employee'").getQuery()})`)
      .execute();
  }

  /** Which of these employee ids exist (a type change to `employee` reads its ids). */
  async existingEmployees(em: EntityManager, ids: readonly number[]): Promise<Set<number>> {
    const found = new Set<number>();
    for (let i = 0; i < ids.length; i += LOOKUP_CHUNK) {
      const chunk = ids.slice(i, i + LOOKUP_CHUNK);
      const rows = await em
        .createQueryBuilder()
        .select('e.id', 'id')
        .from('employees', 'e')
        .where('e.id IN (:...chunk)', { chunk })
        .getRawMany<{ id: number | string }>();
      for (const r of rows) found.add(Number(r.id));
    }
    return found;
  }
}
