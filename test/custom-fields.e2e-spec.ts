import { apiCaller, createTestApp, okCaller, TestApp } from './helpers/test-app';
import { buildCompany, Company } from './helpers/company';

/** Custom field definitions (issue 66, docs/api/custom-fields.md): CRUD, bounds, who reads which. */
describe('custom fields: definitions', () => {
  let t: TestApp;
  let c: Company;
  let ok: ReturnType<typeof okCaller>;
  let call: ReturnType<typeof apiCaller>;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    ok = okCaller(t.app);
    call = apiCaller(t.app);
    admin = c.users.admin.token;
  });
  afterAll(() => t.close());

  const refused = async (method: 'POST' | 'PUT', url: string, body: object) => {
    const res = await call(method, url, admin, body);
    return [res.statusCode, res.json().error?.details?.[0]?.field];
  };

  it('defines a field with its defaults; a PUT takes back what GET gave and never changes the key', async () => {
    const size = await ok('POST', '/custom-fields', admin, {
      key: 'tshirt_size',
      label: 'T-shirt size',
      type: 'select',
      options: [
        { value: 'M', label: 'Medium' },
        { value: 'L', label: 'Large' },
      ],
    });
    expect(size).toEqual({
      id: expect.any(Number),
      key: 'tshirt_size',
      label: 'T-shirt size',
      type: 'select',
      options: [
        { value: 'M', label: 'Medium' },
        { value: 'L', label: 'Large' },
      ],
      required: false,
      unique: false,
      dated: false,
      pii: false,
      visible_to: ['Admin', 'Restricted Admin', 'Manager', 'self'],
      editable_by: 'admin',
      in_list: false,
      position: 0,
      description: null,
    });
    const badge = await ok('POST', '/custom-fields', admin, {
      key: 'badge',
      label: 'Badge',
      type: 'text',
      unique: true,
      in_list: true,
    });
    expect(badge.position).toBe(1);
    // A PUT of what GET returned is accepted as it is; a label changes, the key stays.
    const got = await ok('GET', `/custom-fields/${size.id}`, admin);
    expect(await ok('PUT', `/custom-fields/${size.id}`, admin, got)).toEqual(got);
    expect(await ok('PUT', `/custom-fields/${size.id}`, admin, { ...got, label: 'Shirt size' })).toMatchObject({
      key: 'tshirt_size',
      label: 'Shirt size',
    });
    expect(await refused('PUT', `/custom-fields/${size.id}`, { key: 'shirt' })).toEqual([400, 'key']);
    // Turning a select into text drops its options.
    expect(await ok('PUT', `/custom-fields/${size.id}`, admin, { type: 'text' })).toMatchObject({ type: 'text', options: null });
    expect((await ok('GET', '/custom-fields', admin)).map((f: { key: string }) => f.key)).toEqual(['tshirt_size', 'badge']);
  });

  it('refuses a bad key, a taken key, an unknown type, a select without options and options elsewhere (400 naming the field)', async () => {
    const base = { label: 'X', type: 'text' };
    expect(await refused('POST', '/custom-fields', { ...base, key: 'Bad-Key' })).toEqual([400, 'key']);
    expect(await refused('POST', '/custom-fields', { ...base, key: `k${'x'.repeat(40)}` })).toEqual([400, 'key']);
    expect(await refused('POST', '/custom-fields', { ...base, key: 'badge' })).toEqual([400, 'key']);
    // An employee's own field names head their columns in files.
    expect(await refused('POST', '/custom-fields', { ...base, key: 'status' })).toEqual([400, 'key']);
    expect(await refused('POST', '/custom-fields', { ...base, key: 'effective_date' })).toEqual([400, 'key']);
    expect(await refused('POST', '/custom-fields', { ...base, key: 'z1', type: 'colour' })).toEqual([400, 'type']);
    expect(await refused('POST', '/custom-fields', { ...base, key: 'z2', type: 'multiselect' })).toEqual([400, 'options']);
    expect(await refused('POST', '/custom-fields', { ...base, key: 'z3', options: [{ value: 'a', label: 'A' }] })).toEqual([
      400,
      'options',
    ]);
    const twice = [
      { value: 'a', label: 'A' },
      { value: 'a', label: 'B' },
    ];
    expect(await refused('POST', '/custom-fields', { ...base, key: 'z4', type: 'select', options: twice })).toEqual([
      400,
      'options',
    ]);
    expect(await refused('POST', '/custom-fields', { ...base, key: 'z5', type: 'boolean', unique: true })).toEqual([
      400,
      'unique',
    ]);
    expect(await refused('POST', '/custom-fields', { ...base, key: 'z6', visible_to: ['Everyone'] })).toEqual([
      400,
      'visible_to',
    ]);
    expect(await refused('POST', '/custom-fields', { ...base, key: 'z7', editable_by: 'manager' })).toEqual([400, 'editable_by']);
    expect((await ok('GET', '/custom-fields', admin)).map((f: { key: string }) => f.key)).toEqual(['tshirt_size', 'badge']);
  });

  it('each level reads the definitions it sees; only an Admin writes', async () => {
    const made = async (key: string, visible_to: string[]) =>
      (await ok('POST', '/custom-fields', admin, { key, label: key, type: 'text', visible_to })).id as number;
    const hr = await made('hr_only', ['Admin']);
    await made('own_value', ['self']);
    await made('for_managers', ['Manager']);
    const keys = async (token: string) =>
      ((await ok('GET', '/custom-fields?limit=100', token)) as Array<{ key: string }>).map((f) => f.key).sort();
    expect(await keys(c.users.manager.token)).toEqual(['badge', 'for_managers', 'own_value', 'tshirt_size']);
    expect(await keys(c.users.employee.token)).toEqual(['badge', 'own_value', 'tshirt_size']); // self
    expect(await keys(c.users.orphan.token)).toEqual([]); // an Employee without an employee has no self
    expect((await call('GET', `/custom-fields/${hr}`, c.users.manager.token)).statusCode).toBe(404);
    for (const [method, url] of [
      ['POST', '/custom-fields'],
      ['PUT', `/custom-fields/${hr}`],
      ['DELETE', `/custom-fields/${hr}`],
    ] as const)
      expect((await call(method, url, c.users.restricted.token, { key: 'nope', label: 'N', type: 'text' })).statusCode).toBe(403);
    expect(await ok('DELETE', `/custom-fields/${hr}`, admin)).toEqual({ id: hr });
    expect((await call('GET', `/custom-fields/${hr}`, admin)).statusCode).toBe(404);
  });

  it('two creates of one key at once: one is made, the other is 400 naming the key (never a 500)', async () => {
    const body = { key: 'same_time', label: 'Same time', type: 'text' };
    const answers = await Promise.all([call('POST', '/custom-fields', admin, body), call('POST', '/custom-fields', admin, body)]);
    expect(answers.map((a) => [a.statusCode, a.json().error?.details?.[0]?.field ?? null]).sort()).toEqual([
      [200, null],
      [400, 'key'],
    ]);
  });

  it('at most 200 fields: the 201st is refused', async () => {
    const have = ((await ok('GET', '/custom-fields?limit=100', admin)) as unknown[]).length;
    for (let i = have; i < 200; i++)
      await ok('POST', '/custom-fields', admin, { key: `f${i}`, label: `F ${i}`, type: 'integer' });
    expect(await refused('POST', '/custom-fields', { key: 'one_too_many', label: 'X', type: 'text' })).toEqual([400, 'key']);
  });
});
