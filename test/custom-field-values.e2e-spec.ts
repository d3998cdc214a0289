import { apiCaller, createTestApp, okCaller, TestApp } from './helpers/test-app';
import { buildCompany, Company } from './helpers/company';
import { OutboxRelay } from '../src/common/outbox/outbox-relay';

type Field = { id: number; key: string };

/** Custom field values on employees (issue 66, docs/api/custom-fields.md): every type, who sees and edits, lists. */
describe('custom fields: values on employees', () => {
  let t: TestApp;
  let c: Company;
  let ok: ReturnType<typeof okCaller>;
  let call: ReturnType<typeof apiCaller>;
  let admin: string;
  const fields: Record<string, Field> = {};

  const define = async (key: string, body: object) => {
    fields[key] = await ok('POST', '/custom-fields', admin, { key, label: key, ...body });
  };
  const custom = async (token: string, id: number) => (await ok('GET', `/employees/${id}`, token)).custom_fields;
  const refusal = async (token: string, id: number, values: object) => {
    const res = await call('PUT', `/employees/${id}`, token, { custom_fields: values });
    return [res.statusCode, ...(res.json().error?.details ?? []).map((d: { field: string }) => d.field)];
  };

  /** The fixture company's employees among a list's answer, in its order. */
  const ids = async (token: string, query: string) => {
    const res = await call('GET', `/employees?limit=500&${query}`, token);
    expect([query, res.statusCode]).toEqual([query, 200]);
    const mine = [c.emp.manager, c.emp.report1, c.emp.report2, c.emp.grandReport, c.emp.outsider];
    return res
      .json()
      .data.filter((e: { id: number }) => mine.includes(e.id))
      .map((e: { id: number }) => e.id);
  };

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    ok = okCaller(t.app);
    call = apiCaller(t.app);
    admin = c.users.admin.token;
    await define('badge', { type: 'text', unique: true, in_list: true });
    await define('notes', { type: 'long_text' });
    await define('desks', { type: 'integer', in_list: true });
    await define('allowance', { type: 'decimal' });
    await define('visa_expiry', { type: 'date', pii: true, visible_to: ['Admin', 'Restricted Admin', 'Manager', 'self'] });
    await define('remote', { type: 'boolean', editable_by: 'self', visible_to: ['Admin', 'self'] });
    await define('size', {
      type: 'select',
      options: [
        { value: 'S', label: 'Small' },
        { value: 'M', label: 'Medium' },
        { value: 'L', label: 'Large' },
      ],
    });
    await define('languages', {
      type: 'multiselect',
      options: [
        { value: 'de', label: 'German' },
        { value: 'en', label: 'English' },
        { value: 'fr', label: 'French' },
      ],
    });
    await define('buddy', { type: 'employee' });
    await define('contact', { type: 'email' });
    await define('profile', { type: 'url' });
    await define('cost_centre', { type: 'text', visible_to: ['Admin'] });
  });
  afterAll(() => t.close());

  it('writes every type, reads it back typed, keeps omitted keys, clears with null, and takes back what GET gave', async () => {
    const id = c.emp.report1;
    const values = {
      badge: 'B-100',
      notes: 'x'.repeat(5000),
      desks: 2,
      allowance: '12.50',
      visa_expiry: '2027-03-31',
      remote: true,
      size: 'M',
      languages: ['fr', 'de', 'fr'],
      buddy: c.emp.report2,
      contact: 'ada@example.com',
      profile: 'https://example.com/ada',
      cost_centre: 'CC-7',
    };
    const put = await ok('PUT', `/employees/${id}`, admin, { custom_fields: values });
    const expected = { ...values, allowance: '12.5', languages: ['de', 'fr'] };
    expect(put.custom_fields).toEqual(expected);
    expect(await custom(admin, id)).toEqual(expected);
    // Omitted keys stay; null clears; a decimal given as a number is the same decimal.
    expect(
      (await ok('PUT', `/employees/${id}`, admin, { custom_fields: { desks: null, allowance: 12.5 } })).custom_fields,
    ).toEqual({
      ...expected,
      desks: null,
    });
    // The whole GET body, with its ETag, is a valid PUT that changes nothing.
    const res = await call('GET', `/employees/${id}`, admin);
    const body = res.json().data;
    const again = await t.app.inject({
      method: 'PUT',
      url: `/app/api/employees/${id}`,
      headers: { authorization: `Bearer ${admin}`, 'if-match': String(res.headers.etag) },
      payload: body,
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(body);
    expect(String(again.headers.etag ?? res.headers.etag)).toBe(String(res.headers.etag));
  });

  it('refuses a wrong type, an unknown option, an unknown key, a missing employee and itself (400 naming custom_fields.<key>); nothing changes', async () => {
    const id = c.emp.report2;
    const before = await custom(admin, id);
    const cases: Array<[object, string]> = [
      [{ desks: 1.5 }, 'custom_fields.desks'],
      [{ desks: '3' }, 'custom_fields.desks'],
      [{ allowance: '1.1234567' }, 'custom_fields.allowance'],
      [{ visa_expiry: '2027-02-30' }, 'custom_fields.visa_expiry'],
      [{ remote: 'yes' }, 'custom_fields.remote'],
      [{ size: 'XL' }, 'custom_fields.size'],
      [{ languages: ['en', 'es'] }, 'custom_fields.languages'],
      [{ buddy: 999_999 }, 'custom_fields.buddy'],
      [{ buddy: id }, 'custom_fields.buddy'],
      [{ contact: 'not-an-address' }, 'custom_fields.contact'],
      [{ profile: 'javascript:alert(1)' }, 'custom_fields.profile'],
      [{ badge: 'x'.repeat(1001) }, 'custom_fields.badge'],
      [{ nope: 1 }, 'custom_fields.nope'],
    ];
    for (const [values, field] of cases)
      expect([JSON.stringify(values), ...(await refusal(admin, id, { size: 'L', ...values }))]).toEqual([
        JSON.stringify(values),
        400,
        field,
      ]);
    expect(await refusal(admin, id, [])).toEqual([400, 'custom_fields']);
    expect(await custom(admin, id)).toEqual(before);
  });

  it("a unique value is one employee's (400), a required field is asked on create and cannot be cleared", async () => {
    await ok('PUT', `/employees/${c.emp.manager}`, admin, { custom_fields: { badge: 'B-200' } });
    // Case and accents as typed: "b-200" is the same badge.
    expect(await refusal(admin, c.emp.outsider, { badge: 'b-200' })).toEqual([400, 'custom_fields.badge']);
    await ok('PUT', `/employees/${c.emp.outsider}`, admin, { custom_fields: { badge: 'B-201' } });

    const shift = (
      await ok('POST', '/custom-fields', admin, {
        key: 'shift',
        label: 'Shift',
        type: 'select',
        required: true,
        options: [{ value: 'day', label: 'Day' }],
      })
    ).id;
    const bare = { employee_id: 'CF-1', first_name: 'Req', last_name: 'Uired', joined_date: '2026-01-05' };
    const missing = await call('POST', '/employees', admin, bare);
    expect([missing.statusCode, missing.json().error.details.map((d: { field: string }) => d.field)]).toEqual([
      400,
      ['custom_fields.shift'],
    ]);
    const created = await ok('POST', '/employees', admin, { ...bare, custom_fields: { shift: 'day', badge: 'B-300' } });
    expect(created.custom_fields).toMatchObject({ shift: 'day', badge: 'B-300' });
    expect(await refusal(admin, created.id, { shift: null })).toEqual([400, 'custom_fields.shift']);
    await ok('DELETE', `/custom-fields/${shift}`, admin);
    await ok('DELETE', `/employees/${created.id}`, admin);
  });

  it('shows each caller the fields of its level or of itself; a personal value is null to a Manager; the employee edits only its own fields', async () => {
    await ok('PUT', `/employees/${c.emp.report1}`, admin, {
      custom_fields: { visa_expiry: '2027-03-31', remote: true, cost_centre: 'CC-7' },
    });
    const { manager, employee, restricted } = c.users;
    // The Manager on its report: the fields for Managers, the personal one null, neither `self` nor Admin-only ones.
    const seenByManager = await custom(manager.token, c.emp.report1);
    expect(seenByManager.visa_expiry).toBeNull();
    expect(Object.keys(seenByManager)).not.toEqual(expect.arrayContaining(['remote']));
    expect(seenByManager).not.toHaveProperty('cost_centre');
    // The Restricted Admin sees the personal value; the employee its own, with its `self` field.
    expect((await custom(restricted.token, c.emp.report1)).visa_expiry).toBe('2027-03-31');
    const own = await custom(employee.token, c.emp.report1);
    expect(own).toMatchObject({ visa_expiry: '2027-03-31', remote: true });
    expect(own).not.toHaveProperty('cost_centre');
    // The employee changes its `self` field; an Admin's field is 403 naming it; an Admin-only field is unknown to it.
    expect(
      (await ok('PUT', `/employees/${c.emp.report1}`, employee.token, { custom_fields: { remote: false } })).custom_fields.remote,
    ).toBe(false);
    const forbidden = await call('PUT', `/employees/${c.emp.report1}`, employee.token, { custom_fields: { size: 'S' } });
    expect([forbidden.statusCode, forbidden.json().error.code, forbidden.json().error.details[0].field]).toEqual([
      403,
      'FIELD_NOT_ALLOWED',
      'custom_fields.size',
    ]);
    expect(await refusal(employee.token, c.emp.report1, { cost_centre: 'X' })).toEqual([400, 'custom_fields.cost_centre']);
    // A Manager sending back its report's hidden personal value (null) changes nothing, and is not refused for it.
    const res = await call('PUT', `/employees/${c.emp.manager}`, manager.token, { custom_fields: { visa_expiry: null } });
    expect(res.statusCode).toBe(200);
  });

  it('lists carry the in_list fields; filters take any-of, ranges and null; sorts by a field; refuses fields the caller may not use', async () => {
    await ok('PUT', `/employees/${c.emp.manager}`, admin, {
      custom_fields: { desks: 1, size: 'S', visa_expiry: '2026-12-31', languages: ['en'] },
    });
    await ok('PUT', `/employees/${c.emp.report1}`, admin, { custom_fields: { desks: 5, size: 'M', languages: ['de', 'en'] } });
    await ok('PUT', `/employees/${c.emp.report2}`, admin, { custom_fields: { desks: 9, size: 'L' } });
    const item = (await ok('GET', `/employees?limit=500`, admin)).find((e: { id: number }) => e.id === c.emp.report1);
    expect(item.custom_fields).toEqual({ badge: 'B-100', desks: 5 });
    expect(await ids(admin, 'filters[custom.size]=S,L')).toEqual([c.emp.manager, c.emp.report2]);
    expect(await ids(admin, 'filters[custom.desks]=2..6')).toEqual([c.emp.report1]);
    expect(await ids(admin, 'filters[custom.desks]=..4&filters[custom.desks]=8..')).toEqual([c.emp.manager, c.emp.report2]);
    expect(await ids(admin, 'filters[custom.languages]=en')).toEqual([c.emp.manager, c.emp.report1]);
    expect(await ids(admin, 'filters[custom.desks]=null')).toEqual([c.emp.grandReport, c.emp.outsider]);
    expect(await ids(admin, 'filters[custom.visa_expiry]=2027-01-01..')).toEqual([c.emp.report1]);
    expect(await ids(admin, 'filters[custom.badge]=B-201')).toEqual([c.emp.outsider]);
    expect(await ids(admin, 'sortField=custom.desks&sortOrder=descend&filters[custom.desks]=1..')).toEqual([
      c.emp.report2,
      c.emp.report1,
      c.emp.manager,
    ]);
    expect(await ids(admin, 'sortField=custom.size&filters[custom.size]=S,M,L')).toEqual([
      c.emp.report2,
      c.emp.report1,
      c.emp.manager,
    ]);
    // Without a value last, whichever the order (read from the values' index); as of a day, first ascending (a NULL).
    expect(await ids(admin, 'sortField=custom.desks')).toEqual([
      c.emp.manager,
      c.emp.report1,
      c.emp.report2,
      c.emp.grandReport,
      c.emp.outsider,
    ]);
    expect(await ids(admin, 'sortField=custom.desks&sortOrder=descend')).toEqual([
      c.emp.report2,
      c.emp.report1,
      c.emp.manager,
      c.emp.grandReport,
      c.emp.outsider,
    ]);
    expect(await ids(admin, 'as_of=2026-06-30&sortField=custom.desks')).toEqual([
      c.emp.grandReport,
      c.emp.outsider,
      c.emp.manager,
      c.emp.report1,
      c.emp.report2,
    ]);
    // A page that runs past the employees with a value goes on with those without one.
    const paged = async (page: number) => {
      const res = await call(
        'GET',
        `/employees?limit=2&page=${page}&sortField=custom.desks&filters[department]=${c.departments.engineering},${c.departments.platform},${c.departments.sales}`,
        admin,
      );
      expect(res.statusCode).toBe(200);
      return res.json().data.map((e: { id: number }) => e.id);
    };
    expect([...(await paged(1)), ...(await paged(2)), ...(await paged(3))]).toEqual([
      c.emp.manager,
      c.emp.report1,
      c.emp.report2,
      c.emp.grandReport,
      c.emp.outsider,
    ]);
    // A page of 50 here sorts the matches; pages of one walk the values' index (findKeyedRowsPage
    // picks by the count): the same order either way, the employees without a value after.
    const pageOf = async (query: string) => {
      const res = await call('GET', `/employees?${query}`, admin);
      expect([query, res.statusCode]).toEqual([query, 200]);
      return res.json<{ data: Array<{ id: number }>; total: number }>();
    };
    for (const query of ['sortField=custom.desks', 'sortField=custom.size&sortOrder=descend&filters[custom.size]=S,M,L']) {
      const whole = await pageOf(`${query}&limit=50`);
      const single: number[] = [];
      for (let page = 1; page <= whole.total; page++)
        single.push(...(await pageOf(`${query}&limit=1&page=${page}`)).data.map((e) => e.id));
      expect([query, single]).toEqual([query, whole.data.map((e) => e.id)]);
    }
    // As of a day the values are today's (they are not dated), and the filters work there too.
    expect(await ids(admin, 'as_of=2026-06-30&filters[custom.size]=M')).toEqual([c.emp.report1]);
    const bad = async (token: string, query: string) => {
      const res = await call('GET', `/employees?${query}`, token);
      return [res.statusCode, res.json().error?.details?.[0]?.field];
    };
    expect(await bad(admin, 'filters[custom.desks]=many')).toEqual([400, 'filters.custom.desks']);
    expect(await bad(admin, 'filters[custom.nope]=1')).toEqual([400, 'filters.custom.nope']);
    expect(await bad(admin, 'filters[custom.notes]=x')).toEqual([400, 'filters.custom.notes']);
    expect(await bad(admin, 'sortField=custom.languages')).toEqual([400, 'sortField']);
    // A Manager may not filter by a personal field (it sees it as null) nor by an Admin-only one.
    expect(await bad(c.users.manager.token, 'filters[custom.visa_expiry]=2027-03-31')).toEqual([
      400,
      'filters.custom.visa_expiry',
    ]);
    expect(await bad(c.users.manager.token, 'filters[custom.cost_centre]=CC-7')).toEqual([400, 'filters.custom.cost_centre']);
    expect(await ids(c.users.manager.token, 'filters[custom.size]=M')).toEqual([c.emp.report1]);
  });

  it('a change of custom fields alone is an update of the employee: updated_since finds it', async () => {
    const since = new Date(Date.now() + 1000).toISOString();
    await new Promise((r) => setTimeout(r, 1100));
    await ok('PUT', `/employees/${c.emp.grandReport}`, admin, { custom_fields: { desks: 4 } });
    expect(await ids(admin, `updated_since=${encodeURIComponent(since)}`)).toEqual([c.emp.grandReport]);
    await ok('PUT', `/employees/${c.emp.grandReport}`, admin, { custom_fields: { desks: null } });
  });

  it("audits the values changed, and a deleted employee is no longer anybody's buddy", async () => {
    const temp = await ok('POST', '/employees', admin, {
      employee_id: 'CF-2',
      first_name: 'Tem',
      last_name: 'Porary',
      joined_date: '2026-01-05',
    });
    await ok('PUT', `/employees/${c.emp.outsider}`, admin, { custom_fields: { buddy: temp.id } });
    const audit = await ok(
      'GET',
      `/audit-log?filters[resource]=employees&filters[resource_id]=${c.emp.outsider}&sortOrder=descend&limit=1`,
      admin,
    );
    expect(audit[0].changes).toEqual({ custom_fields: [{ buddy: null }, { buddy: temp.id }] });
    await ok('DELETE', `/employees/${temp.id}`, admin);
    expect((await custom(admin, c.emp.outsider)).buddy).toBeNull();
  });

  it('changing a definition: an option in use stays (409 with the count), a new type converts what fits and refuses the rest (409 naming employees), a deleted field is recorded in each audit', async () => {
    const code = await ok('POST', '/custom-fields', admin, { key: 'code', label: 'Code', type: 'text' });
    await ok('PUT', `/employees/${c.emp.manager}`, admin, { custom_fields: { code: '17' } });
    await ok('PUT', `/employees/${c.emp.report2}`, admin, { custom_fields: { code: 'x9' } });
    const change = (id: number, body: object) => call('PUT', `/custom-fields/${id}`, admin, body);
    // "x9" is no integer: refused, nothing converted.
    const refused = await change(code.id, { type: 'integer' });
    expect([refused.statusCode, refused.json().error.code, refused.json().error.details[0].field]).toEqual([
      409,
      'CONFLICT',
      'type',
    ]);
    expect(refused.json().error.message).toBe(
      `Values not of the type integer: 1 (employees ${c.emp.report2}); change them first`,
    );
    expect((await custom(admin, c.emp.manager)).code).toBe('17');
    // Once it fits, the values are integers.
    await ok('PUT', `/employees/${c.emp.report2}`, admin, { custom_fields: { code: '18' } });
    expect((await ok('PUT', `/custom-fields/${code.id}`, admin, { type: 'integer' })).type).toBe('integer');
    expect((await custom(admin, c.emp.manager)).code).toBe(17);
    expect(await ids(admin, 'filters[custom.code]=17..18')).toEqual([c.emp.manager, c.emp.report2]);
    // Made unique while two employees share a value: refused; made unique when they do not: kept.
    await ok('PUT', `/employees/${c.emp.report2}`, admin, { custom_fields: { code: 17 } });
    const shared = await change(code.id, { unique: true });
    expect([shared.statusCode, shared.json().error.details[0].field]).toEqual([409, 'unique']);
    await ok('PUT', `/employees/${c.emp.report2}`, admin, { custom_fields: { code: 18 } });
    await ok('PUT', `/custom-fields/${code.id}`, admin, { unique: true });
    expect(await refusal(admin, c.emp.report2, { code: 17 })).toEqual([400, 'custom_fields.code']);
    // An option in use cannot be removed; one not in use can.
    const size = fields.size;
    const inUse = await change(size.id, {
      options: [
        { value: 'M', label: 'Medium' },
        { value: 'L', label: 'Large' },
      ],
    });
    expect([inUse.statusCode, inUse.json().error.code]).toEqual([409, 'IN_USE']);
    expect(inUse.json().error.details[0].message).toBe('still in use: S (1)');
    await ok('PUT', `/custom-fields/${size.id}`, admin, {
      options: [
        { value: 'S', label: 'Small' },
        { value: 'M', label: 'Medium' },
        { value: 'L', label: 'Large' },
        { value: 'XL', label: 'Extra large' },
      ],
    });
    await ok('PUT', `/custom-fields/${size.id}`, admin, {
      options: [
        { value: 'S', label: 'Small' },
        { value: 'M', label: 'Medium' },
        { value: 'L', label: 'Large' },
      ],
    });
    // Deleting a field: each holder's audit records the value it had, then the values are gone.
    await ok('DELETE', `/custom-fields/${code.id}`, admin);
    const audit = await ok(
      'GET',
      `/audit-log?filters[resource]=employees&filters[resource_id]=${c.emp.manager}&sortOrder=descend&limit=1`,
      admin,
    );
    expect(audit[0].changes).toEqual({ custom_fields: [{ code: 17 }, { code: null }] });
    expect(await custom(admin, c.emp.manager)).not.toHaveProperty('code');
  });

  it('the change feed carries the custom fields an employee event changed, as the reader sees them: everything to an Admin, what its level sees to a Manager', async () => {
    await t.app.get(OutboxRelay).drain();
    const start = (await call('GET', '/events?limit=1000', admin)).json().next_after;
    await ok('PUT', `/employees/${c.emp.report1}`, admin, {
      custom_fields: { cost_centre: 'CC-9', visa_expiry: '2028-01-31', desks: 3 },
    });
    await t.app.get(OutboxRelay).drain();
    const changed = async (token: string) => {
      const res = await call('GET', `/events?after=${start}&types=employee.updated`, token);
      expect(res.statusCode).toBe(200);
      const event = res.json().data.find((e: { data: { id: number } }) => e.data.id === c.emp.report1);
      return event.data.changes.custom_fields;
    };
    expect(await changed(admin)).toEqual([
      { cost_centre: 'CC-7', visa_expiry: '2027-03-31', desks: 5 },
      { cost_centre: 'CC-9', visa_expiry: '2028-01-31', desks: 3 },
    ]);
    // The Manager: no Admin-only field, the personal one null.
    expect(await changed(c.users.manager.token)).toEqual([
      { visa_expiry: null, desks: 5 },
      { visa_expiry: null, desks: 3 },
    ]);
  });

  it('an export has a column per custom field the caller sees, headed by its key, a multiselect\'s options joined by ";"', async () => {
    await ok('PUT', `/employees/${c.emp.report1}`, admin, { custom_fields: { languages: ['de', 'en'] } });
    const csv = async (token: string) => {
      const res = await call('GET', '/employees?format=csv', token);
      expect(res.statusCode).toBe(200);
      const [header, ...rows] = res.body.trim().split('\r\n');
      const names = header.split(',');
      const row = rows.map((r) => r.split(',')).find((cells) => cells[0] === String(c.emp.report1))!;
      return Object.fromEntries(names.map((n, k) => [n, row[k]]));
    };
    const byAdmin = await csv(admin);
    expect(byAdmin).toMatchObject({
      employee_id: expect.any(String),
      badge: 'B-100',
      languages: 'de;en',
      cost_centre: 'CC-9',
      size: 'M',
    });
    expect(byAdmin).not.toHaveProperty('custom_fields');
    // The Manager's file: no Admin-only column, the personal one empty.
    const byManager = await csv(c.users.manager.token);
    expect(byManager).not.toHaveProperty('cost_centre');
    expect(byManager).toMatchObject({ visa_expiry: '', size: 'M' });
  });

  it('GET /openapi.json read with a token types custom_fields with the fields that user reads; without one it names none', async () => {
    const doc = async (token?: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/app/api/openapi.json',
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      expect(res.statusCode).toBe(200);
      return res.json().components.schemas;
    };
    const byAdmin = await doc(admin);
    const values = byAdmin.EmployeeDto.properties.custom_fields;
    expect(values.additionalProperties).toBe(false);
    expect(values.properties).toMatchObject({
      badge: { type: 'string', maxLength: 1000, nullable: true },
      desks: { type: 'integer', nullable: true },
      allowance: { type: 'string', pattern: expect.any(String) },
      visa_expiry: { type: 'string', format: 'date' },
      remote: { type: 'boolean' },
      size: { type: 'string', enum: ['S', 'M', 'L'] },
      languages: { type: 'array', items: { type: 'string', enum: ['de', 'en', 'fr'] } },
      buddy: { type: 'integer', minimum: 1 },
      contact: { type: 'string', format: 'email' },
      profile: { type: 'string', format: 'uri' },
      cost_centre: { type: 'string' },
    });
    expect(Object.keys(byAdmin.UpdateEmployeeDto.properties.custom_fields.properties)).toEqual(Object.keys(values.properties));
    expect(Object.keys(byAdmin.EmployeeListItemDto.properties.custom_fields.properties).sort()).toEqual(['badge', 'desks']);
    // The Manager's document: no Admin-only field, no field for the employee itself only.
    const byManager = (await doc(c.users.manager.token)).EmployeeDto.properties.custom_fields.properties;
    expect(byManager).not.toHaveProperty('cost_centre');
    expect(byManager).toHaveProperty('size');
    // Anonymous: the generic object, no definition named.
    const anonymous = (await doc()).EmployeeDto.properties.custom_fields;
    expect([anonymous.type, anonymous.properties, anonymous.additionalProperties]).toEqual(['object', undefined, true]);
  });
});
