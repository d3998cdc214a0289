import { addDays } from '../src/common/time/days';
import { EmploymentHistoryJobs } from '../src/employees/history/employment-history.jobs';
import { buildCompany, Company, employeeBody } from './helpers/company';
import { apiCaller, createTestApp, okCaller, outboxEvents, TestApp } from './helpers/test-app';

/** Dated custom fields (issue 66, docs/api/custom-fields.md "Dated fields"): in the employment history's changes, segments and as_of reads. */
describe('custom fields: dated values in the employment history', () => {
  let t: TestApp;
  let c: Company;
  let ok: ReturnType<typeof okCaller>;
  let call: ReturnType<typeof apiCaller>;
  let admin: string;
  const today = new Date().toISOString().slice(0, 10);
  const nextMonth = addDays(today, 35);
  const options = ['A', 'B', 'C', 'D'].map((value) => ({ value, label: `Level ${value}` }));

  const newEmployee = async (custom: object = {}) =>
    (
      await ok('POST', '/employees', admin, {
        ...employeeBody({ joined_date: '2024-01-10', department: c.departments.sales }),
        custom_fields: custom,
      })
    ).id as number;
  const custom = async (id: number, query = '', token = admin) =>
    (await ok('GET', `/employees/${id}${query}`, token)).custom_fields as Record<string, unknown>;
  const refused = async (id: number, body: object) => {
    const res = await call('POST', `/employees/${id}/changes`, admin, body);
    return [res.statusCode, ...(res.json().error?.details ?? []).map((d: { field: string }) => d.field)];
  };

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    ok = okCaller(t.app);
    call = apiCaller(t.app);
    admin = c.users.admin.token;
    const define = (key: string, body: object) => ok('POST', '/custom-fields', admin, { key, label: key, ...body });
    await define('level', { type: 'select', options, dated: true, in_list: true });
    await define('clearance', { type: 'text', dated: true, pii: true, visible_to: ['Admin', 'Restricted Admin', 'Manager'] });
    await define('badge', { type: 'text' });
  });
  afterAll(() => t.close());

  it('a new employee starts with its dated values; a scheduled change is read as_of and in the history, not today', async () => {
    const id = await newEmployee({ level: 'A', badge: 'B-1' });
    const change = await ok('POST', `/employees/${id}/changes`, admin, {
      effective_date: nextMonth,
      reason: 'Promotion',
      fields: { custom_fields: { level: 'B' } },
    });
    expect([change.status, change.fields]).toEqual(['Scheduled', { custom_fields: { level: 'B' } }]);
    expect(await custom(id)).toMatchObject({ level: 'A', badge: 'B-1' });
    expect(await custom(id, `?as_of=${nextMonth}`)).toMatchObject({ level: 'B', badge: 'B-1' });
    expect(await custom(id, `?as_of=${addDays(nextMonth, -1)}`)).toMatchObject({ level: 'A' });
    const history = await ok('GET', `/employees/${id}/history`, admin);
    expect(history.map((s: { effective_from: string; custom_fields: object }) => [s.effective_from, s.custom_fields])).toEqual([
      ['2024-01-10', { level: 'A', clearance: null }],
      [nextMonth, { level: 'B', clearance: null }],
    ]);
    // The list as of that day carries the day's value of a field marked for lists.
    const listed = await ok('GET', `/employees?as_of=${nextMonth}&limit=500`, admin);
    expect(listed.find((e: { id: number }) => e.id === id).custom_fields).toEqual({ level: 'B' });
  });

  it('refuses what is not a dated value: another field, a wrong option, a cleared required one; nothing is recorded', async () => {
    const id = await newEmployee({ level: 'A' });
    const before = await ok('GET', `/employees/${id}/changes`, admin);
    const on = (values: object) => ({ effective_date: nextMonth, fields: { custom_fields: values } });
    expect(await refused(id, on({ badge: 'X' }))).toEqual([400, 'fields.custom_fields.badge']);
    expect(await refused(id, on({ level: 'Z' }))).toEqual([400, 'fields.custom_fields.level']);
    expect(await refused(id, on({ nope: 1 }))).toEqual([400, 'fields.custom_fields.nope']);
    expect(await refused(id, { effective_date: nextMonth, fields: { custom_fields: 'A' } })).toEqual([
      400,
      'fields.custom_fields',
    ]);
    expect(await refused(id, on({}))).toEqual([400, 'fields']);
    expect(await ok('GET', `/employees/${id}/changes`, admin)).toEqual(before);
  });

  it('takes effect on its day (the daily job, also late): the current value, the audit and employee.change_effective', async () => {
    const id = await newEmployee({ level: 'A' });
    const change = await ok('POST', `/employees/${id}/changes`, admin, {
      effective_date: nextMonth,
      fields: { custom_fields: { level: 'C' } },
    });
    const jobs = t.app.get(EmploymentHistoryJobs);
    await jobs.run(new Date(`${addDays(nextMonth, -1)}T12:00:00Z`));
    expect((await custom(id)).level).toBe('A');
    await jobs.run(new Date(`${addDays(nextMonth, 2)}T12:00:00Z`));
    expect((await custom(id)).level).toBe('C');
    // Filters of today read the value now in force.
    const found = await ok('GET', '/employees?filters[custom.level]=C&limit=500', admin);
    expect(found.map((e: { id: number }) => e.id)).toContain(id);
    const effective = (await outboxEvents(t.app, 'employee.change_effective')).find(
      (e) => (e.data as { id: number }).id === change.id,
    );
    expect((effective!.data as { changes: object }).changes).toEqual({ custom_fields: [{ level: 'A' }, { level: 'C' }] });
    const audit = await ok(
      'GET',
      `/audit-log?filters[resource]=employees&filters[resource_id]=${id}&sortOrder=descend&limit=1`,
      admin,
    );
    expect(audit[0].changes).toEqual({ custom_fields: [{ level: 'A' }, { level: 'C' }] });
  });

  it('a PUT sets a dated value from today (a change of today in the history); a correction replaces a scheduled value', async () => {
    const id = await newEmployee({ level: 'A' });
    await ok('PUT', `/employees/${id}`, admin, { custom_fields: { level: 'B', badge: 'not dated' } });
    const changes = await ok('GET', `/employees/${id}/changes`, admin);
    expect(changes[changes.length - 1]).toMatchObject({ effective_date: today, fields: { custom_fields: { level: 'B' } } });
    expect(await custom(id, `?as_of=${addDays(today, -1)}`)).toMatchObject({ level: 'A', badge: 'not dated' });
    expect((await custom(id)).level).toBe('B');
    const scheduled = await ok('POST', `/employees/${id}/changes`, admin, {
      effective_date: nextMonth,
      fields: { custom_fields: { level: 'C' } },
    });
    await ok('POST', `/employees/${id}/changes/${scheduled.id}/correct`, admin, {
      reason: 'Typo',
      fields: { custom_fields: { level: 'D' } },
    });
    expect((await custom(id, `?as_of=${nextMonth}`)).level).toBe('D');
    expect((await custom(id)).level).toBe('B');
  });

  it('a personal dated value is null to a Manager in the history, the changes and as_of; filters by a dated field with as_of are 400', async () => {
    const id = c.emp.report1;
    await ok('POST', `/employees/${id}/changes`, admin, {
      effective_date: today,
      fields: { custom_fields: { clearance: 'Secret' } },
    });
    expect((await custom(id)).clearance).toBe('Secret');
    const manager = c.users.manager.token;
    expect((await custom(id, '', manager)).clearance).toBeNull();
    expect((await custom(id, `?as_of=${today}`, manager)).clearance).toBeNull();
    const history = await ok('GET', `/employees/${id}/history`, manager);
    expect(history[history.length - 1].custom_fields.clearance).toBeNull();
    const changes = await ok('GET', `/employees/${id}/changes`, manager);
    expect(changes[changes.length - 1].fields.custom_fields).toEqual({ clearance: null });
    expect(JSON.stringify(changes)).not.toContain('Secret');
    const res = await call('GET', `/employees?as_of=${today}&filters[custom.level]=A`, admin);
    expect([res.statusCode, res.json().error.details[0].field]).toEqual([400, 'filters.custom.level']);
    const sorted = await call('GET', `/employees?as_of=${today}&sortField=custom.level`, admin);
    expect([sorted.statusCode, sorted.json().error.details[0].field]).toEqual([400, 'sortField']);
  });

  it('a dated field keeps its type; a field becomes dated only while it has no values', async () => {
    const fields = await ok('GET', '/custom-fields', admin);
    const byKey = (key: string) => fields.find((f: { key: string }) => f.key === key).id as number;
    const typed = await call('PUT', `/custom-fields/${byKey('level')}`, admin, { type: 'text' });
    expect([typed.statusCode, typed.json().error.code]).toEqual([409, 'CONFLICT']);
    await newEmployee({ badge: 'B-2' });
    const dated = await call('PUT', `/custom-fields/${byKey('badge')}`, admin, { dated: true });
    expect([dated.statusCode, dated.json().error.code]).toEqual([409, 'IN_USE']);
    const unique = await call('POST', '/custom-fields', admin, {
      key: 'code',
      label: 'Code',
      type: 'text',
      dated: true,
      unique: true,
    });
    expect(unique.statusCode).toBe(400);
  });

  it("the installation's document types a change's fields and the history's segments with the dated fields the reader sees", async () => {
    const schemas = async (token: string) =>
      (await call('GET', '/openapi.json', token)).json().components.schemas as Record<
        string,
        {
          properties: Record<
            string,
            { properties?: Record<string, { type: string; enum?: string[] }>; additionalProperties?: boolean }
          >;
        }
      >;
    const byAdmin = await schemas(admin);
    for (const name of ['ChangeFieldsDto', 'SegmentDto']) {
      const typed = byAdmin[name].properties.custom_fields;
      expect([name, typed.additionalProperties, Object.keys(typed.properties ?? {})]).toEqual([
        name,
        false,
        ['level', 'clearance'],
      ]);
      expect(typed.properties!.level).toMatchObject({ type: 'string', enum: ['A', 'B', 'C', 'D'] });
    }
    // An employee does not see the clearance at all (visible to Admins, Restricted Admins, Managers).
    const byEmployee = await schemas(c.users.employee.token);
    expect(Object.keys(byEmployee.SegmentDto.properties.custom_fields.properties ?? {})).toEqual(['level']);
  });
});
