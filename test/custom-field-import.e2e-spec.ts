import { DataSource } from 'typeorm';
import { addDays } from '../src/common/time/days';
import { Employee } from '../src/employees/entities/employee.entity';
import { buildCompany, Company } from './helpers/company';
import { apiCaller, bearer, createTestApp, okCaller, TestApp, until } from './helpers/test-app';

/** Custom fields in the employees import (issue 66, docs/api/custom-fields.md "Import"): a column per field, headed by its key. */
describe('custom fields: the employees import and its template', () => {
  let t: TestApp;
  let c: Company;
  let ok: ReturnType<typeof okCaller>;
  let call: ReturnType<typeof apiCaller>;
  let admin: string;
  const today = new Date().toISOString().slice(0, 10);
  const nextMonth = addDays(today, 35);

  /** Uploads a CSV of the employees kind and waits for its end: the record and its errors. */
  const imported = async (csv: string, query = 'dry_run=false') => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/app/api/imports?kind=employees&${query}`,
      headers: { ...bearer(admin), 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="people.csv"' },
      payload: csv,
    });
    expect(res.statusCode).toBe(202);
    const id = res.json().data.id as number;
    let record: { status: string; rows_valid: number; rows_failed: number } | null = null;
    await until(async () => {
      record = (await call('GET', `/imports/${id}`, admin)).json().data;
      return ['Validated', 'Completed', 'Failed'].includes(record!.status);
    }, 20_000);
    const errors = (await call('GET', `/imports/${id}/errors?limit=100`, admin)).json().data as Array<{
      row: number;
      column: string | null;
      field: string | null;
      message: string;
    }>;
    // The file's column, or the field when the file has no column for it.
    return { record: record!, errors: errors.map((e) => [e.row, e.column ?? e.field, e.message]) };
  };
  const employee = (employeeId: string) => t.app.get(DataSource).getRepository(Employee).findOne({ where: { employeeId } });
  const custom = async (id: number, query = '') => (await ok('GET', `/employees/${id}${query}`, admin)).custom_fields;

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    ok = okCaller(t.app);
    call = apiCaller(t.app);
    admin = c.users.admin.token;
    const define = (key: string, body: object) => ok('POST', '/custom-fields', admin, { key, label: key, ...body });
    await define('badge', { type: 'text', unique: true });
    await define('languages', {
      type: 'multiselect',
      options: ['de', 'en', 'fr'].map((value) => ({ value, label: value })),
    });
    await define('started_remote', { type: 'date' });
    await define('level', { type: 'select', options: ['A', 'B'].map((value) => ({ value, label: value })), dated: true });
    await define('secret', { type: 'text', visible_to: ['Admin'] });
  });
  afterAll(() => t.close());

  it('the template has a column per field the caller may write, headed by its key, with an example', async () => {
    const template = async (token: string) => {
      const res = await t.app.inject({ method: 'GET', url: '/app/api/imports/templates/employees', headers: bearer(token) });
      expect(res.statusCode).toBe(200);
      const [header, example] = res.body.trim().split('\r\n');
      return { header: header.split(','), example: example.split(',') };
    };
    const byAdmin = await template(admin);
    expect(byAdmin.header.slice(-5)).toEqual(['badge', 'languages', 'started_remote', 'level', 'secret']);
    expect(byAdmin.header).toContain('effective_date');
    expect(byAdmin.example.slice(-5)).toEqual(['text', 'de;en', '2026-01-31', 'A', 'text']);
    // A Restricted Admin's template has no Admin-only field.
    const ra = await template(c.users.restricted.token);
    expect(ra.header).not.toContain('secret');
    expect(ra.header).toContain('badge');
  });

  it('creates and updates with values (a multiselect by ";"), refuses a bad value and a unique one twice in the file, naming the column', async () => {
    const csv = [
      'employee_id,first_name,last_name,joined_date,badge,languages,started_remote,level',
      `CF1,Ada,One,2024-01-10,B-1,de;fr,2025-03-01,A`,
      `CF2,Bob,Two,2024-01-10,B-1,,,`,
      `CF3,Cy,Three,2024-01-10,B-3,xx,,`,
      `CF4,Di,Four,2024-01-10,,,,B`,
    ].join('\n');
    const { record, errors } = await imported(csv, 'dry_run=false&mode=valid-rows');
    expect([record.status, record.rows_valid, record.rows_failed]).toEqual(['Completed', 2, 2]);
    expect(errors).toEqual([
      [2, 'badge', 'appears twice in the file (first at row 1)'],
      [3, 'languages', expect.stringContaining('must be a list of')],
    ]);
    const one = (await employee('CF1'))!;
    expect(await custom(one.id)).toMatchObject({
      badge: 'B-1',
      languages: ['de', 'fr'],
      started_remote: '2025-03-01',
      level: 'A',
    });
    expect(await employee('CF2')).toBeNull();
    // The dated value is the new employee's first segment's.
    const four = (await employee('CF4'))!;
    const history = await ok('GET', `/employees/${four.id}/history`, admin);
    expect(history[0].custom_fields).toEqual({ level: 'B' });

    // An update: a value changed, one left empty (unchanged); a taken unique value is refused.
    const update = await imported(
      ['employee_id,badge,languages', 'CF1,B-9,', 'CF4,B-9,en'].join('\n'),
      'dry_run=false&mode=valid-rows',
    );
    expect(update.errors).toEqual([[2, 'badge', 'appears twice in the file (first at row 1)']]);
    expect(await custom(one.id)).toMatchObject({ badge: 'B-9', languages: ['de', 'fr'] });
  });

  it('with an effective_date, a dated field is a change from that day; a new employee without a required value is refused', async () => {
    const one = (await employee('CF1'))!;
    const { record } = await imported(`employee_id,level,effective_date\nCF1,B,${nextMonth}\n`);
    expect(record.status).toBe('Completed');
    expect((await custom(one.id)).level).toBe('A');
    expect((await custom(one.id, `?as_of=${nextMonth}`)).level).toBe('B');

    await ok('POST', '/custom-fields', admin, { key: 'site', label: 'Site', type: 'text', required: true });
    const refused = await imported('employee_id,first_name,last_name,joined_date\nCF9,No,Site,2024-01-10\n');
    expect(refused.errors).toEqual([[1, 'site', 'is required']]);
    expect(await employee('CF9')).toBeNull();
  });
});
