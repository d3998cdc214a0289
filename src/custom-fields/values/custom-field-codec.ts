import { createHash } from 'node:crypto';
import { isCalendarDate } from '../../common/validation/decorators';
import { CustomField, CustomFieldType } from '../entities/custom-field.entity';

/** A custom field's value as the API carries it (docs/api/custom-fields.md). */
export type CustomValue = string | number | boolean | string[] | null;

/** The employee's property that carries the values (docs/api/custom-fields.md). */
export const PROPERTY = 'custom_fields';

/** One stored row of a value (a multiselect has one per chosen option, `item`). */
export interface StoredValue {
  item: string;
  /** The value as written, as text (the option of a multiselect's row). */
  text: string;
  /** What text filters and sorts read (the first 191 characters), null for long text and numbers. */
  key: string | null;
  /** What numeric filters and sorts read. */
  number: number | null;
  /** The value's digest, for a unique field only (the unique index compares it). */
  unique: string | null;
}

/** The longest text of each text type (API.md §26). */
export const TEXT_LIMITS: Partial<Record<CustomFieldType, number>> = { text: 1_000, long_text: 10_000, email: 254, url: 1_000 };
/** Decimals: up to 18 digits before the point and 6 after. */
const DECIMAL = /^(-?)(\d{1,18})(?:\.(\d{1,6}))?$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const KEY_LENGTH = 191;
/** The types whose values filters and sorts compare as numbers. */
export const NUMERIC_TYPES: readonly CustomFieldType[] = ['integer', 'decimal', 'employee'];
/** The types a list can be sorted by (one comparable value a row). */
export const SORTABLE_TYPES: readonly CustomFieldType[] = [
  'text',
  'integer',
  'decimal',
  'date',
  'boolean',
  'select',
  'employee',
  'email',
  'url',
];

export type Encoded = { value: CustomValue; rows: StoredValue[] } | { problem: string };

/** The first `n` code points of `s` (a string of at most `n` UTF-16 units has at most `n` code points: itself). */
const codePoints = (s: string, n: number) => (s.length <= n ? s : Array.from(s).slice(0, n).join(''));
/** Whether `s` has more than `n` code points (never when it has at most `n` UTF-16 units). */
const longer = (s: string, n: number) => s.length > n && Array.from(s).length > n;

function row(
  field: CustomField,
  text: string,
  opts: { key?: string | null; number?: number | null; item?: string; fold?: boolean },
): StoredValue {
  return {
    item: opts.item ?? '',
    text,
    key: opts.key === undefined ? codePoints(text, KEY_LENGTH) : opts.key,
    number: opts.number ?? null,
    unique: field.unique
      ? createHash('sha256')
          .update(opts.fold ? text.normalize('NFC').toLowerCase() : text)
          .digest('hex')
      : null,
  };
}

/** A decimal as one canonical text: no leading zeros, no trailing zeros after the point ("1.50" → "1.5", "-0" → "0"). */
function canonicalDecimal(raw: string): string | null {
  const m = DECIMAL.exec(raw);
  if (!m) return null;
  const whole = m[2].replace(/^0+(?=\d)/, '');
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  const text = fraction ? `${whole}.${fraction}` : whole;
  return m[1] && /[1-9]/.test(text) ? `-${text}` : text;
}

/**
 * A value written through the API checked against its field and turned into its rows (none for
 * null: the value is cleared). An empty string or an empty list clears as null does. Whether an
 * `employee` value names an employee the writer may refer to is the caller's to check.
 */
export function encode(field: CustomField, raw: unknown): Encoded {
  if (raw === null || raw === undefined || raw === '' || (Array.isArray(raw) && raw.length === 0))
    return { value: null, rows: [] };
  const limit = TEXT_LIMITS[field.type];
  switch (field.type) {
    case 'text':
    case 'long_text':
    case 'email':
    case 'url': {
      if (typeof raw !== 'string') return { problem: 'must be a string' };
      if (longer(raw, limit!)) return { problem: `must be at most ${limit} characters` };
      if (field.type === 'email' && !EMAIL.test(raw)) return { problem: 'must be an e-mail address' };
      if (field.type === 'url' && !isWebAddress(raw)) return { problem: 'must be an http or https URL' };
      return { value: raw, rows: [row(field, raw, { key: field.type === 'long_text' ? null : undefined, fold: true })] };
    }
    case 'integer':
      if (typeof raw !== 'number' || !Number.isSafeInteger(raw)) return { problem: 'must be an integer' };
      return { value: raw, rows: [row(field, String(raw), { key: null, number: raw })] };
    case 'employee':
      if (typeof raw !== 'number' || !Number.isSafeInteger(raw) || raw < 1) return { problem: 'must be the id of an employee' };
      return { value: raw, rows: [row(field, String(raw), { key: null, number: raw })] };
    case 'decimal': {
      const text =
        typeof raw === 'string'
          ? canonicalDecimal(raw)
          : typeof raw === 'number' && Number.isFinite(raw)
            ? canonicalDecimal(String(raw))
            : null;
      if (text === null)
        return { problem: 'must be a decimal number (up to 18 digits before the point and 6 after), as a string or a number' };
      return { value: text, rows: [row(field, text, { key: null, number: Number(text) })] };
    }
    case 'date':
      if (!isCalendarDate(raw)) return { problem: 'must be a date YYYY-MM-DD' };
      return { value: raw, rows: [row(field, raw, {})] };
    case 'boolean':
      if (typeof raw !== 'boolean') return { problem: 'must be true or false' };
      return { value: raw, rows: [row(field, String(raw), {})] };
    case 'select': {
      if (typeof raw !== 'string' || !optionValues(field).includes(raw))
        return { problem: `must be one of ${optionValues(field).join(', ')}` };
      return { value: raw, rows: [row(field, raw, {})] };
    }
    case 'multiselect': {
      const values = optionValues(field);
      if (!Array.isArray(raw) || raw.some((v) => typeof v !== 'string' || !values.includes(v)))
        return { problem: `must be a list of ${values.join(', ')}` };
      const chosen = values.filter((v) => (raw as string[]).includes(v));
      return { value: chosen, rows: chosen.map((v) => row(field, v, { item: v })) };
    }
  }
}

/** The API value of a field from its stored rows (their `text`, with `item` for a multiselect). */
export function decode(
  type: CustomFieldType,
  rows: ReadonlyArray<{ item: string; text: string }>,
  options?: readonly string[],
): CustomValue {
  if (!rows.length) return null;
  const text = rows[0].text;
  switch (type) {
    case 'integer':
    case 'employee':
      return Number(text);
    case 'boolean':
      return text === 'true';
    case 'multiselect': {
      const items = rows.map((r) => r.item);
      return options ? options.filter((o) => items.includes(o)) : items;
    }
    case 'text':
    case 'long_text':
    case 'decimal':
    case 'date':
    case 'select':
    case 'email':
    case 'url':
      return text;
  }
}

/** A value as one text (a CSV cell, the start of a type change): a multiselect's options joined by ";". */
export function toText(value: CustomValue): string {
  if (value === null) return '';
  return Array.isArray(value) ? value.join(';') : String(value);
}

/**
 * Text (a CSV cell, a value of another type) read as `type` reads it, for encode(): numbers and
 * ids from their digits, booleans from true/false/yes/no/1/0, a multiselect's options split at ";".
 * What does not read stays text, which encode() then refuses with the type's own message.
 */
export function fromText(type: CustomFieldType, text: string): unknown {
  const t = text.trim();
  if (t === '') return null;
  switch (type) {
    case 'integer':
    case 'employee':
      return /^-?\d+$/.test(t) ? Number(t) : t;
    case 'boolean': {
      const lower = t.toLowerCase();
      if (['true', 'yes', '1'].includes(lower)) return true;
      if (['false', 'no', '0'].includes(lower)) return false;
      return t;
    }
    case 'multiselect':
      return t
        .split(';')
        .map((v) => v.trim())
        .filter(Boolean);
    case 'text':
    case 'long_text':
      return text;
    case 'decimal':
    case 'date':
    case 'select':
    case 'email':
    case 'url':
      return t;
  }
}

export function optionValues(field: Pick<CustomField, 'options'>): string[] {
  return (field.options ?? []).map((o) => o.value);
}

function isWebAddress(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** A field's value of an employee from its rows (null when it has none). */
export function valueOf(field: CustomField, rows: ReadonlyArray<{ item: string; text: string }> | undefined): CustomValue {
  return decode(field.type, rows ?? [], optionValues(field));
}

/** A template's example of a field's column, as a file writes it. */
export function importExample(field: CustomField): string | number | boolean {
  const options = optionValues(field);
  switch (field.type) {
    case 'integer':
      return 3;
    case 'decimal':
      return '12.50';
    case 'date':
      return '2026-01-31';
    case 'boolean':
      return 'yes';
    case 'select':
      return options[0] ?? '';
    case 'multiselect':
      return options.slice(0, 2).join(';');
    case 'employee':
      return 1;
    case 'email':
      return 'name@example.com';
    case 'url':
      return 'https://example.com';
    case 'text':
    case 'long_text':
      return 'text';
  }
}
