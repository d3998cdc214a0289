import { CustomField } from '../entities/custom-field.entity';
import { encode } from './custom-field-codec';
import { inIndexOrder, ValueInsert } from './custom-field-values.repository';

const field = (type: CustomField['type'], unique = false) => Object.assign(new CustomField(), { id: 1, key: 'f', type, unique });
const rowsOf = (e: ReturnType<typeof encode>) => ('rows' in e ? e.rows : []);

describe('custom field values: bounds in code points, keys, unique digests, the insert order', () => {
  it("a text's bound counts code points, not UTF-16 units (1 000 emoji are 2 000 units and allowed)", () => {
    const emoji = '\u{1F600}';
    expect(encode(field('text'), emoji.repeat(1_000))).toMatchObject({ value: emoji.repeat(1_000) });
    expect(encode(field('text'), emoji.repeat(1_001))).toEqual({ problem: 'must be at most 1000 characters' });
    expect(encode(field('text'), 'a'.repeat(1_001))).toEqual({ problem: 'must be at most 1000 characters' });
  });

  it('the key filters and sorts read is the first 191 code points, never half of a surrogate pair; short text is its own key', () => {
    const emoji = '\u{1F600}';
    expect(rowsOf(encode(field('text'), emoji.repeat(200)))[0].key).toBe(emoji.repeat(191));
    expect(rowsOf(encode(field('text'), 'é'.repeat(191)))[0].key).toBe('é'.repeat(191));
    expect(rowsOf(encode(field('text'), 'x'.repeat(192)))[0].key).toBe('x'.repeat(191));
    expect(rowsOf(encode(field('long_text'), 'long'))[0].key).toBeNull();
  });

  it('a unique text compares folded (NFC, lower case); a field that is not unique has no digest', () => {
    const digest = (raw: string) => rowsOf(encode(field('text', true), raw))[0].unique;
    expect(digest('Caf\u00e9')).toBe(digest('CAFE\u0301'));
    expect(digest('a')).not.toBe(digest('b'));
    expect(rowsOf(encode(field('text'), 'Caf\u00e9'))[0].unique).toBeNull();
    // Dates are not folded (their text is canonical).
    expect(rowsOf(encode(field('date', true), '2026-01-02'))[0].unique).toMatch(/^[0-9a-f]{64}$/);
  });

  it('inIndexOrder: by field, then key (none first), then number (none first), then employee', () => {
    const r = (fieldId: number, employeeId: number, key: string | null, number: number | null) =>
      ({ fieldId, employeeId, key, number, item: '', text: '', unique: null }) as ValueInsert;
    const rows = [
      r(2, 1, 'b', null),
      r(1, 9, null, 5),
      r(1, 3, null, -2),
      r(2, 7, 'a', null),
      r(1, 4, 'z', null),
      r(2, 2, 'a', null),
    ];
    expect(rows.sort(inIndexOrder).map((x) => [x.fieldId, x.employeeId])).toEqual([
      [1, 3],
      [1, 9],
      [1, 4],
      [2, 2],
      [2, 7],
      [2, 1],
    ]);
  });
});
