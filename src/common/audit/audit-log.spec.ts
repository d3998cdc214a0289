import { fieldChanges } from './audit-log';

describe('fieldChanges', () => {
  it('lists the fields that differ as [before, after], compared as JSON', () => {
    expect(fieldChanges({ a: 1, b: 'x', c: [1, 2], d: null }, { a: 1, b: 'y', c: [1, 2], d: null })).toEqual({ b: ['x', 'y'] });
    expect(fieldChanges({ c: [1, 2] }, { c: [2, 1] })).toEqual({
      c: [
        [1, 2],
        [2, 1],
      ],
    });
  });

  it('a create lists what is set, a delete what was set; undefined counts as null', () => {
    expect(fieldChanges(null, { name: 'A', parent: null, extra: undefined })).toEqual({ name: [null, 'A'] });
    expect(fieldChanges({ name: 'A', parent: 3 }, null)).toEqual({ name: ['A', null], parent: [3, null] });
  });

  it('writes dates as ISO strings and leaves out the id and every secret, whatever its case', () => {
    const at = new Date('2026-03-01T10:00:00Z');
    expect(
      fieldChanges(
        {
          id: 1,
          when: null,
          password: 'a',
          passwordHash: 'b',
          temporary_password: 'c',
          refresh_token: 'd',
          webhookSecret: 'e',
          API_KEY: 'f',
        },
        {
          id: 2,
          when: at,
          password: 'z',
          passwordHash: 'y',
          temporary_password: 'x',
          refresh_token: 'w',
          webhookSecret: 'v',
          API_KEY: 'u',
        },
      ),
    ).toEqual({ when: [null, '2026-03-01T10:00:00.000Z'] });
  });
});
