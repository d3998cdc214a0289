import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { OutboxRelay } from '../src/common/outbox/outbox-relay';
import { buildOpenApiDocument } from '../src/app.factory';
import { buildCompany, Company, employeeBody } from './helpers/company';
import { apiCaller, createTestApp, createUser, outboxEvents, TestApp } from './helpers/test-app';

type FeedEvent = { id: number; type: string; occurred_at: string; data: { id: number; employee?: number } };

/** GET /events (issue 43, docs/api/decisions.md §19): the webhook events as a feed read by cursor, scoped like the records. */
describe('events feed', () => {
  let t: TestApp;
  let call: ReturnType<typeof apiCaller>;
  let c: Company;

  beforeAll(async () => {
    t = await createTestApp();
    call = apiCaller(t.app);
    c = await buildCompany(t.app);
  });
  afterAll(() => t.close());

  const read = async (token: string, query = '') => {
    await t.app.get(OutboxRelay).drain();
    const res = await call('GET', `/events${query}`, token);
    expect(res.statusCode).toBe(200);
    return res.json<{ data: FeedEvent[]; next_after: number }>();
  };
  const all = async (token: string, query = '') => {
    const out: FeedEvent[] = [];
    let after = 0;
    for (;;) {
      const page = await read(token, `?after=${after}&limit=3${query}`);
      out.push(...page.data);
      if (!page.data.length) return { events: out, after: page.next_after };
      after = page.next_after;
    }
  };

  it('pages every event in commit order, deletes included, with the payloads webhooks carry', async () => {
    const admin = c.users.admin.token;
    const before = (await all(admin)).after;
    const id = (await call('POST', '/employees', admin, employeeBody({ department: c.departments.sales }))).json().data.id;
    await call('PUT', `/employees/${id}`, admin, { city: 'Lisbon' });
    await call('POST', `/employees/${id}/changes`, admin, {
      effective_date: '2024-02-01',
      fields: { department: c.departments.company },
    });
    await call('DELETE', `/employees/${id}`, admin);
    const { events, after } = await all(
      admin,
      `&types=employee.created,employee.updated,employee.deleted,employee.change_effective`,
    );
    const mine = events.filter((e) => e.id > before && (e.data.employee === id || e.data.id === id));
    expect(mine.map((e) => e.type)).toEqual([
      'employee.created',
      'employee.updated',
      'employee.updated',
      'employee.change_effective',
      'employee.deleted',
    ]);
    expect(mine[1].data).toEqual({ id, employee: id, changes: { city: [null, 'Lisbon'] } });
    expect(events.map((e) => e.id)).toEqual([...events.map((e) => e.id)].sort((a, b) => a - b));
    // Polling at the end: an empty page keeps the cursor.
    expect(await read(admin, `?after=${after}`)).toEqual({ status: 'SUCCESS', data: [], next_after: after });
  });

  it('shows a Manager its own and its reports’ events only, an Employee its own, never an internal event', async () => {
    const admin = c.users.admin.token;
    await call('PUT', `/employees/${c.emp.report1}`, admin, { city: 'Porto' });
    await call('PUT', `/employees/${c.emp.outsider}`, admin, { city: 'Faro' });
    const seen = async (token: string) => new Set((await all(token)).events.map((e) => e.data.employee));
    const manager = await seen(c.users.manager.token);
    expect(manager.has(c.emp.report1)).toBe(true);
    expect(manager.has(c.emp.outsider)).toBe(false);
    expect([...manager].every((e) => [c.emp.manager, c.emp.report1, c.emp.report2].includes(e!))).toBe(true);
    const employee = await seen(c.users.employee.token);
    expect([...employee]).toEqual([c.emp.report1]);
    // A password change is an internal event (it notifies the user): never in the feed.
    const someone = await createUser(t.app, 'Employee');
    const changed = await call('POST', '/users/me/password', someone.token, {
      current_password: someone.password,
      new_password: 'a-New-Secret-42',
    });
    expect(changed.statusCode).toBe(200);
    expect(await outboxEvents(t.app, 'user.password_changed')).not.toEqual([]);
    const types = new Set((await all(admin)).events.map((e) => e.type));
    expect(types.has('user.password_changed')).toBe(false);
    expect(types.has('employee.updated')).toBe(true);
  });

  it('shows a Manager only what the REST API lets it read of its reports: no hidden document type, no user (Hardening IV item 26)', async () => {
    const admin = c.users.admin.token;
    const hidden = (await call('POST', '/document-types', admin, { name: 'Work permit', expires: true })).json().data.id;
    const shown = (
      await call('POST', '/document-types', admin, { name: 'Certificate', expires: true, visible_to_manager: true })
    ).json().data.id;
    const ds = t.app.get(DataSource);
    const [{ top }] = await ds.query('SELECT COALESCE(MAX(seq), 0) AS top FROM outbox_events');
    const row = (n: number, event: string, payload: object) =>
      ds.query('INSERT INTO outbox_events (event_id, event, payload, created_at, seq, employee_id) VALUES (?, ?, ?, ?, ?, ?)', [
        `feed-rule-${n}`,
        event,
        JSON.stringify(payload),
        new Date().toISOString().slice(0, 19).replace('T', ' '),
        Number(top) + n,
        c.emp.report1,
      ]);
    const doc = (id: number, type: number) => ({
      id,
      employee: c.emp.report1,
      document_type: type,
      name: 'x',
      version: 1,
      valid_until: '2027-01-01',
      days_left: 30,
    });
    await row(1, 'document.expiring', doc(9001, hidden));
    await row(2, 'document.expiring', doc(9002, shown));
    await row(3, 'user.created', { id: 777, employee: c.emp.report1, changes: { username: [null, 'report1.user'] } });
    const types = '&types=document.expiring,user.created';
    const ids = async (token: string) =>
      (await all(token, types)).events.filter((e) => e.id > Number(top)).map((e) => `${e.type}:${e.data.id}`);
    expect(await ids(c.users.manager.token)).toEqual(['document.expiring:9002']);
    expect(await ids(admin)).toEqual(['document.expiring:9001', 'document.expiring:9002', 'user.created:777']);
    // A page reads on past what it does not show: the first page of one holds the shown document.
    const page = await read(c.users.manager.token, `?after=${Number(top)}&limit=1${types}`);
    expect([page.data.map((e) => e.data.id), page.next_after]).toEqual([[9002], Number(top) + 2]);
  });

  it('refuses unknown types and bad cursors with 400', async () => {
    const admin = c.users.admin.token;
    const unknown = await call('GET', '/events?types=employee.updated,user.password_changed', admin);
    expect([unknown.statusCode, unknown.json().error.details[0].field]).toEqual([400, 'types']);
    expect((await call('GET', '/events?after=-1', admin)).statusCode).toBe(400);
    // Past 2^53 a cursor would be rounded to another event's.
    expect((await call('GET', '/events?after=9007199254740993', admin)).statusCode).toBe(400);
    expect((await call('GET', '/events?limit=1001', admin)).statusCode).toBe(400);
  });

  it('GET /employees/{id} sends an ETag; PUT and DELETE with a stale If-Match answer 412 and change nothing', async () => {
    const admin = c.users.admin.token;
    const id = (await call('POST', '/employees', admin, employeeBody())).json().data.id;
    const first = await call('GET', `/employees/${id}`, admin);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    // The digest of the body as sent (serialized once).
    expect(etag).toBe(`"${createHash('sha1').update(first.body).digest('base64url')}"`);
    const put = (ifMatch: string, city: string) =>
      t.app.inject({
        method: 'PUT',
        url: `/app/api/employees/${id}`,
        headers: { authorization: `Bearer ${admin}`, 'if-match': ifMatch },
        payload: { city },
      });
    expect((await put(etag, 'Graz')).statusCode).toBe(200);
    const second = await call('GET', `/employees/${id}`, admin);
    expect(second.headers.etag).not.toBe(etag);
    const stale = await put(etag, 'Linz');
    expect([stale.statusCode, stale.json().error.code]).toEqual([412, 'PRECONDITION_FAILED']);
    expect((await call('GET', `/employees/${id}`, admin)).json().data.city).toBe('Graz');
    expect((await put(`"other", ${second.headers.etag as string}`, 'Wels')).statusCode).toBe(200);
    const del = (ifMatch: string) =>
      t.app.inject({
        method: 'DELETE',
        url: `/app/api/employees/${id}`,
        headers: { authorization: `Bearer ${admin}`, 'if-match': ifMatch },
      });
    expect((await del(etag)).statusCode).toBe(412);
    expect((await call('GET', `/employees/${id}`, admin)).statusCode).toBe(200);
    expect((await del('*')).statusCode).toBe(200);
    // Without If-Match, as before.
    expect((await call('PUT', `/employees/${c.emp.outsider}`, admin, { city: 'Bonn' })).statusCode).toBe(200);
  });

  it('POST /employees/{id}/changes honours If-Match, and the document says If-Match is optional and GET sends the ETag (Hardening IV item 13)', async () => {
    const admin = c.users.admin.token;
    const change = (ifMatch: string) =>
      t.app.inject({
        method: 'POST',
        url: `/app/api/employees/${c.emp.report2}/changes`,
        headers: { authorization: `Bearer ${admin}`, 'if-match': ifMatch, 'content-type': 'application/json' },
        payload: JSON.stringify({ effective_date: new Date().toISOString().slice(0, 10), fields: { job_title: null } }),
      });
    const before = await call('GET', `/employees/${c.emp.report2}`, admin);
    const etag = String(before.headers.etag);
    const count = async () => (await call('GET', `/employees/${c.emp.report2}/changes`, admin)).json().data.length;
    const n = await count();
    for (const stale of ['"nope"', 'W/"0000"']) expect((await change(stale)).statusCode).toBe(412);
    expect(await count()).toBe(n);
    expect((await change(etag)).statusCode).toBe(200);
    expect(await count()).toBe(n + 1);
    const doc = buildOpenApiDocument(t.app, t.config) as unknown as {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: Array<{ in: string; name: string; required?: boolean }>;
            responses: Record<string, { headers?: Record<string, unknown> }>;
          }
        >
      >;
    };
    const ifMatchOf = (method: string, path: string) =>
      doc.paths[path][method].parameters?.filter((p) => p.in === 'header' && /if-match/i.test(p.name));
    for (const [method, path] of [
      ['put', '/employees/{id}'],
      ['delete', '/employees/{id}'],
      ['post', '/employees/{id}/changes'],
    ])
      expect({ method, path, params: ifMatchOf(method, path) }).toEqual({
        method,
        path,
        params: [expect.objectContaining({ name: 'If-Match', required: false })],
      });
    expect(Object.keys(doc.paths['/employees/{id}'].get.responses['200'].headers ?? {})).toContain('ETag');
  });

  it('GET /employees?updated_since lists what changed since an instant', async () => {
    const admin = c.users.admin.token;
    await new Promise((r) => setTimeout(r, 1100));
    const since = new Date().toISOString();
    await call('PUT', `/employees/${c.emp.report2}`, admin, { city: 'Ulm' });
    await call('POST', `/employees/${c.emp.grandReport}/changes`, admin, {
      effective_date: '2024-01-01',
      fields: { job_title: c.jobTitle },
    });
    const res = await call('GET', `/employees?limit=100&updated_since=${encodeURIComponent(since)}`, admin);
    expect(
      res
        .json()
        .data.map((e: { id: number }) => e.id)
        .sort(),
    ).toEqual([c.emp.report2, c.emp.grandReport].sort());
    expect((await call('GET', '/employees?updated_since=yesterday', admin)).statusCode).toBe(400);
  });

  it('updated_since on the record lists: attendance, leave requests, time entries and users changed since an instant', async () => {
    const admin = c.users.admin.token;
    const me = c.users.employee.token;
    const ok = async (method: 'POST' | 'PUT', url: string, token: string, body: object) => {
      const res = await call(method, url, token, body);
      expect([url, res.statusCode, res.statusCode === 200 ? null : res.body]).toEqual([url, 200, null]);
      return res.json().data as { id: number };
    };
    await ok('POST', '/leave-periods', admin, { name: 'Sync 2027', date_start: '2027-01-01', date_end: '2027-12-31' });
    const type = await ok('POST', '/leave-types', admin, { name: 'Sync leave', default_days: 0, allow_negative: true });
    const leave = async (day: string) => ok('POST', '/leaves', me, { leave_type: type.id, date_start: day, date_end: day });
    const entry = async (day: string) => ok('POST', '/timesheets', me, { date: day, start: '09:00', end: '10:00' });
    const punch = async (day: string) =>
      ok('POST', '/attendance', admin, { employee: c.emp.outsider, in_time: `${day}T08:00:00Z`, out_time: `${day}T09:00:00Z` });
    const [oldLeave, keptLeave, oldEntry, keptEntry, oldPunch, keptPunch] = [
      await leave('2027-02-01'),
      await leave('2027-02-02'),
      await entry('2027-02-01'),
      await entry('2027-02-02'),
      await punch('2027-02-01'),
      await punch('2027-02-02'),
    ];
    const user = await createUser(t.app, 'Admin');
    const keptUser = await createUser(t.app, 'Admin');
    await new Promise((r) => setTimeout(r, 1100));
    const since = encodeURIComponent(new Date().toISOString());
    await ok('POST', `/leaves/${oldLeave.id}/approve`, admin, {});
    await ok('POST', `/timesheets/${oldEntry.id}/submit`, me, {});
    await ok('PUT', `/attendance/${oldPunch.id}`, admin, { note: 'corrected' });
    await ok('PUT', `/users/${user.user.id}`, admin, { email: 'synced@company.test' });
    const [newLeave, newEntry, newPunch] = [await leave('2027-02-03'), await entry('2027-02-03'), await punch('2027-02-03')];
    const ids = async (url: string) =>
      (
        (await call('GET', `${url}${url.includes('?') ? '&' : '?'}limit=100&updated_since=${since}`, admin)).json()
          .data as Array<{ id: number }>
      )
        .map((x) => x.id)
        .sort((a, b) => a - b);
    expect(await ids('/leaves')).toEqual([oldLeave.id, newLeave.id]);
    expect(await ids('/timesheets')).toEqual([oldEntry.id, newEntry.id]);
    expect(await ids('/attendance')).toEqual([oldPunch.id, newPunch.id]);
    expect(await ids('/users')).toEqual([user.user.id]);
    expect([keptLeave.id, keptEntry.id, keptPunch.id, keptUser.user.id]).not.toContain(undefined);
    expect((await call('GET', '/attendance?updated_since=2027-02-01', admin)).statusCode).toBe(400);
  });
});
