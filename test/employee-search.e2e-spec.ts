import { employeeBody } from './helpers/company';
import { apiCaller, createTestApp, createUser, TestApp } from './helpers/test-app';

/**
 * `search` on /employees: every word must begin a word of the first, middle or last name, the
 * employee_id or the work e-mail (FTS5 on SQLite, FULLTEXT on MariaDB), kept in step with writes.
 */
describe('employee search: word prefixes over a full-text index', () => {
  let t: TestApp;
  let call: ReturnType<typeof apiCaller>;
  let admin: string;
  const ids: Record<string, number> = {};

  const found = async (search: string) => {
    const res = await call('GET', `/employees?search=${encodeURIComponent(search)}&limit=500`, admin);
    expect(res.statusCode).toBe(200);
    return (res.json().data as Array<{ id: number }>).map((e) => e.id).sort((a, b) => a - b);
  };

  beforeAll(async () => {
    t = await createTestApp();
    call = apiCaller(t.app);
    admin = (await createUser(t.app, 'Admin')).token;
    const people = {
      anna: { first_name: 'Anna', last_name: 'Smith', work_email: 'anna.smith@acme.test', employee_id: 'EMP-0042' },
      zoe: { first_name: 'Zoë', middle_name: 'Marie', last_name: 'Smithers', work_email: 'zm@acme.test' },
      li: { first_name: 'Wei', last_name: 'Li', work_email: 'wei.li@acme.test' },
      obrien: { first_name: 'Seán', last_name: 'Blacksmith', work_email: 'sean@other.test' },
    };
    for (const [key, fields] of Object.entries(people)) {
      const res = await call('POST', '/employees', admin, employeeBody(fields));
      expect(res.statusCode).toBe(200);
      ids[key] = res.json().data.id;
    }
  });
  afterAll(() => t.close());

  it('matches word prefixes in any searched column, every word required, case and accents folded', async () => {
    expect(await found('smith')).toEqual([ids.anna, ids.zoe].sort((a, b) => a - b)); // Smith, Smithers, anna.smith@
    expect(await found('SMI ann')).toEqual([ids.anna]);
    expect(await found('zoe')).toEqual([ids.zoe]);
    expect(await found('sean')).toEqual([ids.obrien]);
    expect(await found('mari')).toEqual([ids.zoe]); // middle name
    expect(await found('emp-0042')).toEqual([ids.anna]); // employee_id words
    expect(await found('acme')).toEqual([ids.anna, ids.zoe, ids.li].sort((a, b) => a - b)); // e-mail domain
    expect(await found('li')).toEqual([ids.li]); // shorter than MariaDB's smallest indexed word
    expect(await found('mith')).toEqual([]); // inside a word: not a prefix
  });

  it('passes no full-text syntax through: operators and quotes are separators, nothing but punctuation finds nothing', async () => {
    expect(await found('"smith* -anna')).toEqual([ids.anna]); // no NOT: both words required
    expect(await found('anna) OR (1=1')).toEqual([]); // "or" and "1" are words no employee has
    expect(await found('*')).toEqual([]);
    expect(await found('+-<>()~@"')).toEqual([]);
  });

  it('follows changes and deletions', async () => {
    expect((await call('PUT', `/employees/${ids.li}`, admin, { last_name: 'Lindqvist' })).statusCode).toBe(200);
    expect(await found('lindq')).toEqual([ids.li]);
    expect(await found('wei li')).toEqual([ids.li]); // the e-mail still says wei.li
    expect((await call('DELETE', `/employees/${ids.zoe}`, admin)).statusCode).toBe(200);
    expect(await found('smith')).toEqual([ids.anna]);
  });
});
