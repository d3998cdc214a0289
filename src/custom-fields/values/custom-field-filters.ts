import { ErrorDetail } from '../../common/errors/domain.exception';
import { Condition, KeyedOrder } from '../../common/paging/list-request';
import { CustomField } from '../entities/custom-field.entity';
import { encode, fromText, NUMERIC_TYPES, SORTABLE_TYPES } from './custom-field-codec';

/** The types whose filters take ranges `a..b` (either end may be left out). */
const RANGE_TYPES = [...NUMERIC_TYPES, 'date'];

/** What one filter asks: any of `equal` values, of the ranges, or no value at all (`null`). */
interface Wanted {
  equal: Array<string | number>;
  ranges: Array<[string | number | null, string | number | null]>;
  none: boolean;
}

/** A filter's raw values (a JSON list, "a,b" for any but free text, or one value). */
function rawValues(field: CustomField, raw: unknown): unknown[] {
  if (Array.isArray(raw)) return raw;
  const freeText = ['text', 'long_text', 'email', 'url'].includes(field.type);
  return typeof raw === 'string' && raw.includes(',') && !freeText ? raw.split(',') : [raw];
}

/** One value as the column compares it: the number, or the text key; undefined when it does not fit the field. */
function comparable(field: CustomField, raw: unknown): string | number | undefined {
  const value = field.type === 'multiselect' ? [raw] : typeof raw === 'string' ? fromText(field.type, raw) : raw;
  const encoded = encode(field, value);
  if ('problem' in encoded || !encoded.rows.length) return undefined;
  const row = encoded.rows[0];
  return NUMERIC_TYPES.includes(field.type) ? (row.number ?? undefined) : (row.key ?? undefined);
}

function wanted(field: CustomField, raw: unknown, name: string, problems: ErrorDetail[]): Wanted | null {
  const values = rawValues(field, raw);
  if (values.length === 0 || values.length > 100) {
    problems.push({ field: name, message: 'must have 1 to 100 values' });
    return null;
  }
  const out: Wanted = { equal: [], ranges: [], none: false };
  for (const v of values) {
    if (v === null || v === 'null') {
      out.none = true;
      continue;
    }
    if (typeof v === 'string' && v.includes('..') && RANGE_TYPES.includes(field.type)) {
      const [lo, hi] = v.split('..', 2).map((end) => (end === '' ? null : comparable(field, end)));
      if (lo === undefined || hi === undefined || (lo === null && hi === null)) {
        problems.push({ field: name, message: `a range is from..to of ${field.type} values (either end may be left out)` });
        return null;
      }
      out.ranges.push([lo, hi]);
      continue;
    }
    const c = comparable(field, v);
    if (c === undefined) {
      problems.push({ field: name, message: `${JSON.stringify(v)} is not a ${field.type} value of this field` });
      return null;
    }
    out.equal.push(c);
  }
  return out;
}

/**
 * The condition over employees `e` of `filters[custom.<key>]` (n: the filter's index, naming its
 * parameters): the employees with any of the values, in any of the ranges, or (null) without a
 * value. Each part is one indexed lookup of the values, (field_id, value_key) or (field_id, value_number).
 */
export function filterCondition(
  field: CustomField,
  raw: unknown,
  name: string,
  n: number,
  problems: ErrorDetail[],
): Condition | null {
  if (field.type === 'long_text') {
    problems.push({ field: name, message: 'long text fields are not filterable' });
    return null;
  }
  const want = wanted(field, raw, name, problems);
  if (!want) return null;
  const column = NUMERIC_TYPES.includes(field.type) ? 'v.value_number' : 'v.value_key';
  const params: Record<string, unknown> = { [`cf${n}`]: field.id };
  const values = (test: string) =>
    `e.id IN (SELECT v.employee_id FROM custom_field_values v WHERE v.field_id = :cf${n} AND ${test})`;
  const parts: string[] = [];
  if (want.equal.length) {
    parts.push(values(`${column} IN (:...cf${n}v)`));
    params[`cf${n}v`] = want.equal;
  }
  want.ranges.forEach(([lo, hi], i) => {
    const tests: string[] = [];
    if (lo !== null) tests.push(`${column} >= :cf${n}lo${i}`);
    if (hi !== null) tests.push(`${column} <= :cf${n}hi${i}`);
    Object.assign(params, { [`cf${n}lo${i}`]: lo, [`cf${n}hi${i}`]: hi });
    parts.push(values(tests.join(' AND ')));
  });
  if (want.none) parts.push(`e.id NOT IN (SELECT v.employee_id FROM custom_field_values v WHERE v.field_id = :cf${n})`);
  return { sql: parts.map((p) => `(${p})`).join(' OR '), params };
}

/**
 * How the employees are sorted by a field (one value a row), or null for a type that has none:
 * read from the values' index (`keyed`: the employees with a value in its order, then those
 * without), or, for the list as of a day, by a LEFT JOIN and the column (employees without a value
 * sort as NULL does there: first ascending).
 */
export function sortTerm(field: CustomField, mysql: boolean): { join: string; column: string; keyed: KeyedOrder } | null {
  if (!SORTABLE_TYPES.includes(field.type)) return null;
  // The id is the definition's own integer: written into the SQL, never a client's text.
  const id = Number(field.id);
  const join = `LEFT JOIN custom_field_values cs ON cs.field_id = ${id} AND cs.employee_id = e.id AND cs.item = ''`;
  const column = NUMERIC_TYPES.includes(field.type) ? 'cs.value_number' : 'cs.value_key';
  const on = `cs.field_id = ${id} AND cs.item = ''`;
  const keyed: KeyedOrder = {
    // Walking the values' index: MariaDB joins in the written order; SQLite is kept off the values'
    // primary key (employee first), which it would reach through a filter's employees and then sort.
    from: mysql
      ? `custom_field_values cs FORCE INDEX (${NUMERIC_TYPES.includes(field.type) ? 'idx_cfv_number' : 'idx_cfv_key'}) STRAIGHT_JOIN employees e ON e.id = cs.employee_id AND ${on}`
      : `custom_field_values cs CROSS JOIN employees e ON e.id = +cs.employee_id AND ${on}`,
    sorted: `custom_field_values cs JOIN employees e ON e.id = cs.employee_id AND ${on}`,
    key: column,
    id: 'cs.employee_id',
    keys: `SELECT COUNT(*) FROM custom_field_values cs WHERE ${on}`,
    missing: { sql: `e.id NOT IN (SELECT m.employee_id FROM custom_field_values m WHERE m.field_id = ${id})`, params: {} },
  };
  return { join, column, keyed };
}
