import { FilterBudget, matches, MAX_FILTER_WORK, parseFilter } from './scim-filter';
import { ListAnswer, parseQuery } from './scim-query';
import { USER_SCHEMA } from './scim-schema';
import { ScimError } from './scim.error';

/** The filter's work is bounded per request (Hardening IV item 22, docs/history.md: 34 s of event loop from one GET). */
describe('SCIM filter evaluation budget', () => {
  const user = (n: number, emails: number) => ({
    userName: `u${n}`,
    emails: Array.from({ length: emails }, (_, i) => ({ value: `u${n}.${i}@example.com` })),
  });
  const manyOr = parseFilter(`emails[${Array.from({ length: 50 }, (_, i) => `value eq "z${i}"`).join(' or ')}]`);

  it('counts each expression against each value, and refuses past the limit with 400 tooMany', () => {
    const budget = new FilterBudget(10_000);
    // 20 e-mails × 50 expressions (and the or-nodes between them) for each user: 30 users are too many.
    let matched = 0;
    const tried = () => {
      for (let n = 0; n < 30; n++) if (matches(user(n, 20), manyOr, USER_SCHEMA, budget)) matched += 1;
    };
    expect(tried).toThrow(ScimError);
    try {
      new FilterBudget(1).spend(2);
    } catch (err) {
      expect((err as ScimError).scimType).toBe('tooMany');
      expect((err as ScimError).status).toBe(400);
    }
    expect(matched).toBe(0);
  });

  it('a list answer spends one budget over all its batches, and yields to the event loop after each', async () => {
    const answer = new ListAnswer(parseQuery({ filter: 'userName eq "u3"' }), USER_SCHEMA);
    let ticks = 0;
    const tick = setInterval(() => (ticks += 1), 0);
    try {
      for (let b = 0; b < 5; b++) {
        const before = ticks;
        await answer.add(Array.from({ length: 10 }, (_, i) => user(b * 10 + i, 1)));
        await new Promise((r) => setTimeout(r, 2));
        expect(ticks).toBeGreaterThan(before);
      }
    } finally {
      clearInterval(tick);
    }
    expect(answer.total).toBe(1);
    // The default is far above what an identity provider's filters cost over 100 000 users.
    expect(MAX_FILTER_WORK).toBeGreaterThanOrEqual(100_000 * 4);
  });

  it('attributes with the core schema URN keep that attribute (userName), an extension URN its object', () => {
    const resource = {
      schemas: [USER_SCHEMA],
      id: '1',
      userName: 'ada',
      name: { givenName: 'Ada' },
      'urn:x:ext:2.0:User': { a: 1 },
    };
    expect(parseQuery({ attributes: `${USER_SCHEMA}:userName` }).project(resource)).toEqual({
      schemas: [USER_SCHEMA],
      id: '1',
      userName: 'ada',
    });
    expect(parseQuery({ attributes: `${USER_SCHEMA}:name.givenName,urn:x:ext:2.0:User:a` }).project(resource)).toEqual({
      schemas: [USER_SCHEMA],
      id: '1',
      name: { givenName: 'Ada' },
      'urn:x:ext:2.0:User': { a: 1 },
    });
  });
});
