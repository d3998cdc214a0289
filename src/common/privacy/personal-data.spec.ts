import { AnonymisedSubject, redactJson, redactJsonText } from './personal-data';
import { yearsBefore } from '../time/days';

const subject: AnonymisedSubject = {
  employeeId: 7,
  name: 'Former employee 7',
  values: ['Hugo Bauer', 'hugo@example.com'],
  keys: new Set(['first_name', 'iban']),
};

describe('redaction of payloads (issue 69)', () => {
  it('sets personal keys to null at any depth and replaces personal values in other text', () => {
    expect(
      redactJson(
        { first_name: ['Hugo', 'Hugh'], note: 'mail Hugo Bauer at hugo@example.com', nested: [{ iban: 'DE89' }] },
        subject,
      ),
    ).toEqual({ first_name: [null, null], note: 'mail Former employee 7 at Former employee 7', nested: [{ iban: null }] });
  });

  it('keeps a "__proto__" key of a payload a key: it neither sets the prototype nor loses the value', () => {
    const out = JSON.parse(redactJsonText('{"__proto__": {"first_name": "Hugo"}, "a": 1}', subject)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__', 'a']);
    const redacted = redactJson(JSON.parse('{"__proto__": {"first_name": "Hugo"}}'), subject) as object;
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(redacted, '__proto__')?.value).toEqual({ first_name: null });
  });
});

describe('yearsBefore (retention cut-offs)', () => {
  it('goes back whole years; a 29 February becomes the 28th in a common year', () => {
    expect(yearsBefore('2026-12-05', 6)).toBe('2020-12-05');
    expect(yearsBefore('2028-02-29', 1)).toBe('2027-02-28');
    expect(yearsBefore('2028-02-29', 4)).toBe('2024-02-29');
    expect(yearsBefore('2026-01-01', 0)).toBe('2026-01-01');
  });
});
