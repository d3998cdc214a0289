import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import createClient from 'openapi-fetch';
import { createHrClient, customFieldDefinitions, serializeQuery } from '../clients/typescript/src/index';
import type { paths } from '../clients/typescript/src/schema';
import { totpCode } from '../src/auth/mfa/totp';
import { OutboxRelay } from '../src/common/outbox/outbox-relay';
import { buildCompany, Company } from './helpers/company';
import { createTestApp, TestApp } from './helpers/test-app';
import { itIf } from './helpers/skip';

/** The generator the client package installs (npm run client): an outside implementation, run at its defaults. */
const GENERATOR = join(__dirname, '..', 'clients', 'typescript', 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
/** @hey-api/openapi-ts, the client package's too (the outside implementation). */
const HEY_API = join(__dirname, '..', 'clients', 'typescript', 'node_modules', '@hey-api', 'openapi-ts', 'bin', 'run.js');
const NEEDS_GENERATOR = 'the generators npm run client installs (a step of .ci/run, before the suites that use them)';

/**
 * Issue 41, item 12: no generated client could filter a list (the document described `filters` as
 * JSON content; openapi-fetch sent filters[status]=Active, which was refused). Here the package's
 * own client (clients/typescript, generated from the document) filters over HTTP.
 */
describe('the typed client filters lists (issue 41, item 12)', () => {
  let t: TestApp;
  let c: Company;
  let baseUrl: string;

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}/app/api`;
  });
  afterAll(() => t.close());

  it('sends filters[field]=value, repeated for several values', () => {
    expect(serializeQuery({ limit: 5, filters: { status: 'Active', department: [3, 4] } })).toBe(
      'limit=5&filters[status]=Active&filters[department]=3&filters[department]=4',
    );
  });

  it('one value and several values filter as the JSON form does', async () => {
    const api = createHrClient({ baseUrl, token: c.users.admin.token });
    const ids = (rows: Array<{ id: number }> | undefined) => (rows ?? []).map((r) => r.id).sort((a, b) => a - b);
    const json = async (filters: object) =>
      ids(
        (
          await t.app.inject({
            method: 'GET',
            url: `/app/api/employees?limit=100&filters=${encodeURIComponent(JSON.stringify(filters))}`,
            headers: { authorization: `Bearer ${c.users.admin.token}` },
          })
        ).json().data,
      );

    const engineering = await api.GET('/employees', {
      params: { query: { limit: 100, filters: { department: c.departments.engineering } } },
    });
    expect(engineering.response.status).toBe(200);
    expect(ids(engineering.data?.data)).toEqual(await json({ department: c.departments.engineering }));
    expect(engineering.data?.data.length).toBeGreaterThan(0);

    const two = [c.departments.engineering, c.departments.sales];
    const both = await api.GET('/employees', {
      params: { query: { limit: 100, filters: { department: two.join(','), status: 'Active' } } },
    });
    expect(both.response.status).toBe(200);
    expect(ids(both.data?.data)).toEqual(await json({ department: two, status: 'Active' }));
    expect(ids(both.data?.data).length).toBeGreaterThan(ids(engineering.data?.data).length);

    const wrong = await api.GET('/employees', {
      // @ts-expect-error: Retired is not an employee status; the server says so too
      params: { query: { filters: { status: 'Retired' } } },
    });
    expect([wrong.response.status, wrong.error?.error.details?.[0]?.field]).toEqual([400, 'filters.status']);
  });

  it('openapi-fetch at its defaults (deepObject) sends any-of filters as one scalar, filters[field]=a,b (Hardening IV item 11)', async () => {
    const plain = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${c.users.admin.token}` } });
    const two = [c.departments.engineering, c.departments.sales];
    const res = await plain.GET('/employees', {
      params: { query: { limit: 100, filters: { department: two.join(',') } } },
    });
    expect(res.response.status).toBe(200);
    expect(decodeURIComponent(new URL(res.response.url).search)).toContain(`filters[department]=${two.join(',')}`);
    type Listed = { data: Array<{ department: number | null }> };
    const departments = new Set((res.data as Listed).data.map((e) => e.department));
    expect([...departments].sort()).toEqual([...two].sort());
    const one = await plain.GET('/employees', { params: { query: { limit: 100, filters: { department: two[0] } } } });
    expect((res.data as Listed).data.length).toBeGreaterThan((one.data as Listed).data.length);
    const bad = await plain.GET('/employees', { params: { query: { filters: { department: '2,x' } } } });
    expect([bad.response.status, bad.error?.error.details?.[0]?.field]).toEqual([400, 'filters.department']);
  });

  it('refuses both forms at once, and an unknown field in either', async () => {
    const get = (query: string) =>
      t.app.inject({
        method: 'GET',
        url: `/app/api/employees?${query}`,
        headers: { authorization: `Bearer ${c.users.admin.token}` },
      });
    const both = await get(`filters=${encodeURIComponent('{"status":"Active"}')}&filters[status]=Active`);
    expect([both.statusCode, both.json().error.details[0].field]).toEqual([400, 'filters']);
    for (const field of ['salary', '__proto__', 'constructor']) {
      const res = await get(`filters[${field}]=1`);
      expect([field, res.statusCode, res.json().error.details[0].field]).toEqual([field, 400, `filters.${field}`]);
    }
  });

  it('calls every employment history route with every parameter (issue 43)', async () => {
    const api = createHrClient({ baseUrl, token: c.users.admin.token });
    const id = c.emp.report2;
    const path = { path: { id } };
    const moved = await api.POST('/employees/{id}/changes', {
      params: path,
      body: { effective_date: '2024-03-01', reason: 'Transfer', fields: { department: c.departments.platform } },
    });
    expect([moved.response.status, moved.data?.data.status]).toEqual([200, 'Effective']);
    const planned = await api.POST('/employees/{id}/changes', {
      params: path,
      body: { effective_date: '2199-01-01', fields: { job_title: c.jobTitle, supervisor: null } },
    });
    expect(planned.data?.data.status).toBe('Scheduled');
    const cid = planned.data!.data.id;
    const fixed = await api.POST('/employees/{id}/changes/{cid}/correct', {
      params: { path: { id, cid: moved.data!.data.id } },
      body: { reason: 'Wrong team', effective_date: '2024-03-04', fields: { department: c.departments.engineering } },
    });
    expect(fixed.data?.data.corrects).toBe(moved.data!.data.id);
    const cancelled = await api.DELETE('/employees/{id}/changes/{cid}', { params: { path: { id, cid } } });
    expect(cancelled.data?.data.status).toBe('Cancelled');
    const changes = await api.GET('/employees/{id}/changes', { params: path });
    expect(changes.data?.data.map((x) => x.id)).toEqual(expect.arrayContaining([moved.data!.data.id, cid]));
    const history = await api.GET('/employees/{id}/history', {
      params: { path: { id }, query: { known_at: moved.data!.data.recorded_at } },
    });
    expect(history.data?.data.find((x) => x.effective_from === '2024-03-01')?.department).toBe(c.departments.platform);
    const then = await api.GET('/employees/{id}', { params: { path: { id }, query: { as_of: '2024-03-02' } } });
    expect(then.data?.data.department).toBe(c.departments.engineering);
    const salary = await api.GET('/employees/{id}/salary', { params: { path: { id }, query: { as_of: '2024-03-02' } } });
    expect([salary.response.status, salary.data?.data]).toEqual([200, []]);
    const list = await api.GET('/employees', {
      params: { query: { as_of: '2024-03-02', filters: { department: c.departments.engineering }, limit: 100 } },
    });
    expect(list.data?.data.map((e) => e.id)).toContain(id);
    const since = await api.GET('/employees', {
      params: { query: { updated_since: '2020-01-01T00:00:00Z', as_of: '2024-03-02', limit: 5, page: 1, search: 'Last' } },
    });
    expect(since.response.status).toBe(200);
    // updated_since on the other record lists, with their date range.
    const future = { updated_since: '2099-01-01T00:00:00Z', from: '2020-01-01', to: '2030-12-31', limit: 5 };
    for (const answer of [
      await api.GET('/attendance', { params: { query: future } }),
      await api.GET('/leaves', { params: { query: future } }),
      await api.GET('/timesheets', { params: { query: future } }),
      await api.GET('/users', { params: { query: { updated_since: '2099-01-01T00:00:00Z', search: 'a', limit: 5 } } }),
    ])
      expect([answer.response.status, answer.data?.data]).toEqual([200, []]);
    const feed = await api.GET('/events', { params: { query: { after: 0, limit: 2, types: 'employee.change_effective' } } });
    expect([feed.response.status, feed.data?.data.every((e) => e.type === 'employee.change_effective')]).toEqual([200, true]);
    expect(typeof feed.data?.next_after).toBe('number');
    const headcount = await api.GET('/insights/headcount/{period}', { params: { path: { period: '6months' } } });
    expect([headcount.response.status, headcount.data?.data.every((r) => r.headcount > 0)]).toEqual([200, true]);
    const turnover = await api.GET('/insights/turnover/{period}', { params: { path: { period: '1year' } } });
    expect([turnover.response.status, Array.isArray(turnover.data?.data)]).toEqual([200, true]);
  });

  it('calls every approval chain route with every parameter (issue 45)', async () => {
    const api = createHrClient({ baseUrl, token: c.users.admin.token });
    const policy = await api.POST('/approval-policies', {
      body: {
        name: 'Typed',
        applies_to: 'time',
        conditions: { departments: [c.departments.engineering] },
        steps: [
          { approvers: ['supervisor'], mode: 'all' },
          { approvers: ['admins'], mode: 'any' },
        ],
        escalate_after_days: 2,
      },
    });
    expect(policy.response.status).toBe(200);
    const id = policy.data!.data.id;
    // A PUT takes what the GET returned.
    const got = await api.GET('/approval-policies/{id}', { params: { path: { id } } });
    const put = await api.PUT('/approval-policies/{id}', {
      params: { path: { id } },
      body: { ...got.data!.data, name: 'Typed 2' },
    });
    expect(put.data?.data.name).toBe('Typed 2');
    const policies = await api.GET('/approval-policies', {
      params: { query: { filters: { applies_to: 'time' }, sortField: 'name', sortOrder: 'descend', page: 1, limit: 5 } },
    });
    expect(policies.data?.data.map((p) => p.id)).toContain(id);
    const delegation = await api.POST('/approval-delegations', {
      body: { delegator: c.emp.manager, delegate: c.emp.report2, date_start: '2199-01-01', date_end: '2199-01-02' },
    });
    const did = delegation.data!.data.id;
    const shown = await api.GET('/approval-delegations/{id}', { params: { path: { id: did } } });
    const moved = await api.PUT('/approval-delegations/{id}', {
      params: { path: { id: did } },
      body: { ...shown.data!.data, date_end: '2199-01-03' },
    });
    expect(moved.data?.data.date_end).toBe('2199-01-03');
    const delegations = await api.GET('/approval-delegations', {
      params: { query: { filters: { delegator: c.emp.manager }, from: '2199-01-01', to: '2199-12-31', sortField: 'date_start' } },
    });
    expect(delegations.data?.data.map((d) => d.id)).toEqual([did]);
    const manager = createHrClient({ baseUrl, token: c.users.manager.token });
    const entry = await api.POST('/timesheets', {
      body: { employee: c.emp.report2, date: '2030-02-04', start: '09:00', end: '10:00' },
    });
    const eid = entry.data!.data.id;
    await api.POST('/timesheets/{id}/submit', { params: { path: { id: eid } } });
    const inbox = await manager.GET('/approvals/pending', {
      params: {
        query: { filters: { kind: 'time', employee: c.emp.report2 }, sortField: 'requested_at', sortOrder: 'ascend', limit: 10 },
      },
    });
    expect(inbox.data?.data.map((x) => [x.kind, x.id, x.step])).toEqual([['time', eid, 1]]);
    const decided = await manager.POST('/timesheets/{id}/approve', { params: { path: { id: eid } }, body: { comment: 'ok' } });
    expect(decided.data?.data.approval?.steps[0].decisions[0].comment).toBe('ok');
    const last = await api.POST('/timesheets/{id}/approve', { params: { path: { id: eid } } });
    expect(last.data?.data.status).toBe('Approved');
    expect((await api.DELETE('/approval-delegations/{id}', { params: { path: { id: did } } })).response.status).toBe(200);
    expect((await api.DELETE('/approval-policies/{id}', { params: { path: { id } } })).response.status).toBe(200);
  });
  it('calls every checklist route with every parameter (issue 67)', async () => {
    const api = createHrClient({ baseUrl, token: c.users.admin.token });
    const made = await api.POST('/checklist-templates', {
      body: {
        name: 'Typed offboarding',
        trigger: 'termination',
        conditions: { departments: [c.departments.sales] },
        items: [{ title: 'Return the laptop', assignee: 'admins', offset_days: -1, required: true, document_type: null }],
      },
    });
    expect(made.response.status).toBe(200);
    const id = made.data!.data.id;
    const got = await api.GET('/checklist-templates/{id}', { params: { path: { id } } });
    const put = await api.PUT('/checklist-templates/{id}', {
      params: { path: { id } },
      body: { ...got.data!.data, name: 'Typed 2' },
    });
    expect(put.data?.data.name).toBe('Typed 2');
    const templates = await api.GET('/checklist-templates', {
      params: { query: { filters: { trigger: 'termination' }, sortField: 'name', sortOrder: 'ascend', page: 1, limit: 5 } },
    });
    expect(templates.data?.data.map((x) => x.id)).toContain(id);
    const leaves = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    await api.PUT('/employees/{id}', { params: { path: { id: c.emp.outsider } }, body: { termination_date: leaves } });
    await t.app.get(OutboxRelay).drain();
    const lists = await api.GET('/checklists', {
      params: {
        query: {
          employee: c.emp.outsider,
          status: 'Open',
          filters: { trigger: 'termination' },
          sortField: 'effective_date',
          sortOrder: 'descend',
          page: 1,
          limit: 10,
        },
      },
    });
    const [list] = lists.data!.data;
    expect([list.template, list.effective_date, list.items[0].title]).toEqual([id, leaves, 'Return the laptop']);
    const one = await api.GET('/checklists/{id}', { params: { path: { id: list.id } } });
    expect(one.data?.data.progress).toEqual({ completed: 0, total: 1 });
    const done = await api.POST('/checklists/{id}/items/{item}/complete', {
      params: { path: { id: list.id, item: list.items[0].id } },
    });
    expect(done.data?.data.status).toBe('Completed');
    expect((await api.DELETE('/checklist-templates/{id}', { params: { path: { id } } })).response.status).toBe(200);
  });

  it('calls every expense claim route with every parameter, the receipt as multipart (issue 68)', async () => {
    const admin = createHrClient({ baseUrl, token: c.users.admin.token });
    const me = createHrClient({ baseUrl, token: c.users.employee.token });
    const manager = createHrClient({ baseUrl, token: c.users.manager.token });
    const category = (
      await admin.POST('/expense-categories', { body: { name: 'Typed taxi', account: '6400', requires_receipt: true } })
    ).data!.data.id;
    const made = await me.POST('/expense-claims', {
      body: {
        title: 'Typed trip',
        items: [{ category, date: '2026-03-02', description: 'Taxi', amount: '12.50', currency: 'EUR' }],
      },
    });
    expect(made.response.status).toBe(200);
    const id = made.data!.data.id;
    const got = (await me.GET('/expense-claims/{id}', { params: { path: { id } } })).data!.data;
    const put = await me.PUT('/expense-claims/{id}', { params: { path: { id } }, body: { ...got, title: 'Typed trip 2' } });
    expect(put.data?.data.title).toBe('Typed trip 2');
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
      Buffer.from('IHDR'),
      Buffer.alloc(32),
    ]);
    const item = got.items[0].id;
    const uploaded = await me.PUT('/expense-claims/{id}/items/{item}/receipt', {
      params: { path: { id, item } },
      body: { file: 'taxi.png' },
      bodySerializer: () => {
        const form = new FormData();
        form.append('file', new Blob([png], { type: 'image/png' }), 'taxi.png');
        return form;
      },
    });
    expect([uploaded.response.status, uploaded.data?.data.items[0].receipt]).toEqual([200, expect.any(Number)]);
    expect((await me.POST('/expense-claims/{id}/submit', { params: { path: { id } } })).data?.data.status).toBe('Submitted');
    const file = await manager.GET('/expense-claims/{id}/items/{item}/receipt', {
      params: { path: { id, item } },
      parseAs: 'arrayBuffer',
    });
    expect(Buffer.compare(Buffer.from(file.data as ArrayBuffer), png)).toBe(0);
    const listed = await manager.GET('/expense-claims', {
      params: {
        query: {
          filters: { status: 'Submitted', employee: c.emp.report1 },
          sortField: 'submitted_at',
          sortOrder: 'descend',
          page: 1,
          limit: 5,
        },
      },
    });
    expect(listed.data?.data.map((x) => x.id)).toContain(id);
    const own = await manager.GET('/employees/{id}/expense-claims', {
      params: { path: { id: c.emp.report1 }, query: { limit: 5 } },
    });
    expect(own.data?.data.map((x) => x.id)).toContain(id);
    const rejected = await manager.POST('/expense-claims/{id}/reject', {
      params: { path: { id } },
      body: { comment: 'the date' },
    });
    expect(rejected.data?.data.status).toBe('Rejected');
    await me.POST('/expense-claims/{id}/submit', { params: { path: { id } } });
    expect((await manager.POST('/expense-claims/{id}/approve', { params: { path: { id } } })).data?.data.status).toBe('Approved');
    const paid = await admin.POST('/expense-claims/{id}/pay', { params: { path: { id } }, body: { reference: 'TRF-7' } });
    expect(paid.data?.data.paid_reference).toBe('TRF-7');
    const draft = (await me.POST('/expense-claims', { body: { title: 'To cancel' } })).data!.data.id;
    expect((await me.POST('/expense-claims/{id}/cancel', { params: { path: { id: draft } } })).data?.data.status).toBe(
      'Cancelled',
    );
    const other = (await me.POST('/expense-claims', { body: { title: 'To delete' } })).data!.data.id;
    expect((await me.DELETE('/expense-claims/{id}', { params: { path: { id: other } } })).data?.data.id).toBe(other);
  });

  it('sets a legal hold and anonymises a leaver through the typed client (issue 69)', async () => {
    const api = createHrClient({ baseUrl, token: c.users.admin.token });
    const made = await api.POST('/employees', {
      body: { employee_id: 'TYPED-69', first_name: 'Typed', last_name: 'Leaver', joined_date: '2024-01-01' },
    });
    const id = made.data!.data.id;
    const held = await api.PUT('/employees/{id}', { params: { path: { id } }, body: { privacy: { legal_hold: true } } });
    const privacy: { legal_hold: boolean | null; anonymised_at: string | null } = held.data!.data.privacy;
    expect(privacy).toEqual({ legal_hold: true, anonymised_at: null });
    await api.PUT('/employees/{id}', {
      params: { path: { id } },
      body: { status: 'Terminated', privacy: { legal_hold: false } },
    });
    // Its data as one ZIP before it goes.
    const asked = await api.POST('/employees/{id}/personal-data-exports', { params: { path: { id } } });
    const exportId = asked.data!.data.id;
    let status = asked.data!.data.status;
    for (let i = 0; i < 200 && (status === 'Queued' || status === 'Running'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await api.GET('/personal-data-exports/{id}', { params: { path: { id: exportId } } })).data!.data.status;
    }
    expect(status).toBe('Ready');
    const zip = await api.GET('/personal-data-exports/{id}/file', { params: { path: { id: exportId } }, parseAs: 'arrayBuffer' });
    expect(
      Buffer.from(zip.data as ArrayBuffer)
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');
    const done = await api.POST('/employees/{id}/anonymise', { params: { path: { id } } });
    expect(done.data?.data.name).toBe(`Former employee ${id}`);
  });

  it('calls every retention route with every parameter (issue 69)', async () => {
    const api = createHrClient({ baseUrl, token: c.users.admin.token });
    const made = await api.POST('/retention-policies', { body: { category: 'notifications', keep_years: 3, action: 'delete' } });
    const id = made.data!.data.id;
    const listed = await api.GET('/retention-policies', {
      params: { query: { page: 1, limit: 10, sortField: 'category', sortOrder: 'descend', search: 'notif' } },
    });
    expect(listed.data?.data.map((p) => p.id)).toEqual([id]);
    const got = (await api.GET('/retention-policies/{id}', { params: { path: { id } } })).data!.data;
    const put = await api.PUT('/retention-policies/{id}', { params: { path: { id } }, body: { ...got, keep_years: 4 } });
    expect(put.data?.data.keep_years).toBe(4);
    const preview = await api.GET('/retention/preview', { params: { query: { page: 1, limit: 5, sortOrder: 'descend' } } });
    expect(Array.isArray(preview.data?.data)).toBe(true);
    expect((await api.DELETE('/retention-policies/{id}', { params: { path: { id } } })).data?.data.id).toBe(id);
  });

  it('calls every bank account and payroll books route with every parameter (issue 46)', async () => {
    const api = createHrClient({ baseUrl, token: c.users.admin.token });
    const path = { id: c.emp.report2 };
    const added = await api.POST('/employees/{id}/bank-accounts', {
      params: { path },
      body: { iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX', holder_name: 'Typed', primary: true },
    });
    expect(added.data?.data.iban).toBe('DE89370400440532013000');
    const accountId = added.data!.data.id;
    // A PUT takes what the GET returned.
    const shown = await api.GET('/employees/{id}/bank-accounts/{accountId}', { params: { path: { ...path, accountId } } });
    const put = await api.PUT('/employees/{id}/bank-accounts/{accountId}', {
      params: { path: { ...path, accountId } },
      body: { ...shown.data!.data, holder_name: 'Typed 2' },
    });
    expect(put.data?.data.holder_name).toBe('Typed 2');
    const listed = await api.GET('/employees/{id}/bank-accounts', {
      params: { path, query: { sortField: 'id', sortOrder: 'descend', page: 1, limit: 5 } },
    });
    expect(listed.data?.data.map((a) => a.id)).toEqual([accountId]);
    const column = await api.POST('/payroll_config/payroll-columns', { body: { name: 'Typed net', variable: 'typed_net' } });
    const mapping = await api.POST('/payroll_config/accounts', {
      body: { column: column.data!.data.id, debit_account: '4200', credit_account: '4210', cost_centre: 'department' },
    });
    const mid = mapping.data!.data.id;
    const got = await api.GET('/payroll_config/accounts/{id}', { params: { path: { id: mid } } });
    const moved = await api.PUT('/payroll_config/accounts/{id}', {
      params: { path: { id: mid } },
      body: { ...got.data!.data, cost_centre: 'none' },
    });
    expect(moved.data?.data.cost_centre).toBe('none');
    const mappings = await api.GET('/payroll_config/accounts', {
      params: { query: { search: '4210', sortField: 'column', sortOrder: 'ascend', limit: 5 } },
    });
    expect(mappings.data?.data.map((m) => m.id)).toEqual([mid]);
    // The downloads of a payroll that is not Completed: every parameter passes validation (a 409,
    // not a 400), and an execution date that is no day is refused by name.
    const payroll = await api.POST('/payroll_config/payrolls', {
      body: {
        name: 'Typed',
        pay_period: 4,
        department: c.departments.engineering,
        date_start: '2025-06-01',
        date_end: '2025-06-30',
        columns: [column.data!.data.id],
        net_column: column.data!.data.id,
      },
    });
    const id = payroll.data!.data.id;
    expect(payroll.data?.data.net_column).toBe(column.data!.data.id);
    const file = await api.POST('/payroll_config/payrolls/{id}/bank-files', {
      params: { path: { id } },
      body: { format: 'pain.001.001.09', execution_date: '2199-01-05', skip_missing: true },
    });
    expect([file.response.status, file.error?.error.code]).toEqual([409, 'INVALID_STATE']);
    const past = await api.POST('/payroll_config/payrolls/{id}/bank-files', {
      params: { path: { id } },
      body: { execution_date: '2199-02-30' },
    });
    expect([past.response.status, past.error?.error.details?.[0].field]).toEqual([400, 'execution_date']);
    const journal = await api.GET('/payroll_config/payrolls/{id}/journal', {
      params: { path: { id }, query: { format: 'csv' } },
    });
    expect(journal.response.status).toBe(409);
    const register = await api.GET('/payroll_config/payrolls/{id}/register', {
      params: { path: { id }, query: { format: 'xlsx' } },
    });
    expect(register.response.status).toBe(409);
    expect((await api.DELETE('/payroll_config/accounts/{id}', { params: { path: { id: mid } } })).response.status).toBe(200);
    const removed = await api.DELETE('/employees/{id}/bank-accounts/{accountId}', { params: { path: { ...path, accountId } } });
    expect(removed.response.status).toBe(200);
  });
  it('calls every second-factor and SCIM route with every parameter (issue 47)', async () => {
    const admin = createHrClient({ baseUrl, token: c.users.admin.token });
    const me = createHrClient({ baseUrl, token: c.users.employee.token });
    expect((await me.GET('/users/me/mfa')).data?.data.totp).toBe('none');
    const enrolment = await me.POST('/users/me/mfa/totp');
    const secret = enrolment.data!.data.secret;
    const confirmed = await me.POST('/users/me/mfa/totp/confirm', { body: { code: totpCode(secret, Date.now() - 30_000) } });
    expect(confirmed.data?.data.recovery_codes).toHaveLength(10);
    const removed = await me.DELETE('/users/me/mfa', { body: { code: confirmed.data!.data.recovery_codes[0] } });
    expect(removed.data?.data.removed).toBe(true);
    const reset = await admin.DELETE('/users/{id}/mfa', { params: { path: { id: c.users.employee.user.id } } });
    expect([reset.response.status, reset.error?.error.code]).toEqual([404, 'NOT_FOUND']);

    // Single sign-on is not configured here: every parameter passes validation, then 404.
    const login = await admin.GET('/auth/oidc/login', { params: { query: { return_to: '/signed-in' } } });
    expect([login.response.status, login.error?.error.code]).toEqual([404, 'NOT_FOUND']);
    const back = await admin.GET('/auth/oidc/callback', {
      params: {
        query: {
          code: 'c',
          state: 's',
          iss: 'https://idp.example',
          error: 'e',
          error_description: 'd',
          error_uri: 'https://idp.example/e',
          session_state: 'x',
        },
      },
    });
    expect([back.response.status, back.error?.error.code]).toEqual([404, 'NOT_FOUND']);

    const issued = await admin.POST('/scim-tokens', { body: { name: 'typed' } });
    const tokenId = issued.data!.data.id;
    expect((await admin.GET('/scim-tokens')).data?.data.map((x) => x.id)).toContain(tokenId);
    expect((await admin.GET('/scim-tokens/{id}', { params: { path: { id: tokenId } } })).data?.data.name).toBe('typed');
    const scim = createHrClient({ baseUrl, token: issued.data!.data.token });
    for (const path of ['/scim/v2/ServiceProviderConfig', '/scim/v2/ResourceTypes', '/scim/v2/Schemas'] as const)
      expect((await scim.GET(path)).response.status).toBe(200);
    expect((await scim.GET('/scim/v2/ResourceTypes/{name}', { params: { path: { name: 'Group' } } })).response.status).toBe(200);
    const schemaId = 'urn:ietf:params:scim:schemas:core:2.0:User';
    expect((await scim.GET('/scim/v2/Schemas/{id}', { params: { path: { id: schemaId } } })).response.status).toBe(200);
    const user = await scim.POST('/scim/v2/Users', {
      body: { userName: 'typed.scim', emails: [{ value: 'typed.scim@corp.example' }] },
    });
    expect(user.response.status).toBe(201);
    const id = String((user.data as { id: string }).id);
    const query = {
      filter: 'userName eq "typed.scim"',
      startIndex: 1,
      count: 5,
      attributes: 'userName',
      excludedAttributes: 'emails',
    };
    const found = await scim.GET('/scim/v2/Users', { params: { query } });
    expect((found.data as { totalResults: number }).totalResults).toBe(1);
    const one = await scim.GET('/scim/v2/Users/{id}', {
      params: { path: { id }, query: { attributes: 'userName,active', excludedAttributes: 'meta' } },
    });
    expect(one.data).toEqual({ schemas: expect.any(Array), id, userName: 'typed.scim', active: true });
    // Typed as ScimUser (Hardening IV item 15): a PUT takes what the GET returned, as the client types it.
    const full = (await scim.GET('/scim/v2/Users/{id}', { params: { path: { id } } })).data!;
    expect(full.userName).toBe('typed.scim');
    expect(
      (await scim.PUT('/scim/v2/Users/{id}', { params: { path: { id } }, body: { ...full, displayName: 'Typed' } })).response
        .status,
    ).toBe(200);
    const patchOp = (Operations: Array<{ op: string; path?: string; value?: unknown }>) => ({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations,
    });
    expect(
      (
        await scim.PATCH('/scim/v2/Users/{id}', {
          params: { path: { id } },
          body: patchOp([{ op: 'replace', path: 'title', value: 'T' }]),
        })
      ).response.status,
    ).toBe(204);
    const group = await scim.POST('/scim/v2/Groups', { body: { displayName: 'Typed group', members: [{ value: id }] } });
    const gid = String((group.data as { id: string }).id);
    expect(
      (await scim.GET('/scim/v2/Groups', { params: { query: { ...query, filter: 'displayName eq "Typed group"' } } })).response
        .status,
    ).toBe(200);
    const g = (
      await scim.GET('/scim/v2/Groups/{id}', { params: { path: { id: gid }, query: { excludedAttributes: 'members' } } })
    ).data;
    expect(g).not.toHaveProperty('members');
    const gFull = (await scim.GET('/scim/v2/Groups/{id}', { params: { path: { id: gid } } })).data!;
    expect((await scim.PUT('/scim/v2/Groups/{id}', { params: { path: { id: gid } }, body: gFull })).response.status).toBe(200);
    expect(
      (
        await scim.PATCH('/scim/v2/Groups/{id}', {
          params: { path: { id: gid } },
          body: patchOp([{ op: 'remove', path: 'members' }]),
        })
      ).response.status,
    ).toBe(204);
    expect((await scim.DELETE('/scim/v2/Groups/{id}', { params: { path: { id: gid } } })).response.status).toBe(204);
    expect((await scim.DELETE('/scim/v2/Users/{id}', { params: { path: { id } } })).response.status).toBe(204);
    expect((await admin.DELETE('/scim-tokens/{id}', { params: { path: { id: tokenId } } })).data?.data.id).toBe(tokenId);
  });

  it('reads the metrics (issue 48): as text, from loopback without a token', async () => {
    const scraper = createHrClient({ baseUrl, token: '' });
    const res = await scraper.GET('/metrics', { parseAs: 'text' });
    expect(res.response.status).toBe(200);
    expect(res.data).toContain('# TYPE hr_http_request_duration_seconds histogram');
    const user = createHrClient({ baseUrl, token: c.users.admin.token });
    const refused = await user.GET('/metrics', { parseAs: 'text' });
    expect(refused.response.status).toBe(401);
  });

  it('reads the custom field definitions a form is built from, every page, in form order: by position, then id (issue 66)', async () => {
    const api = createHrClient({ baseUrl, token: c.users.admin.token });
    for (const key of ['zz_last', 'aa_first'])
      expect((await api.POST('/custom-fields', { body: { key, label: key, type: 'boolean' } })).response.status).toBe(200);
    const size = { key: 'size', label: 'Size', type: 'select' as const, options: [{ value: 'M', label: 'Medium' }], position: 0 };
    expect((await api.POST('/custom-fields', { body: size })).response.status).toBe(200);
    const fields = await customFieldDefinitions(api);
    expect(fields.map((f) => [f.key, f.type, f.options])).toEqual([
      ['zz_last', 'boolean', null],
      ['size', 'select', [{ value: 'M', label: 'Medium' }]],
      ['aa_first', 'boolean', null],
    ]);
    // A Manager reads what it sees (the default audience names Managers).
    expect((await customFieldDefinitions(createHrClient({ baseUrl, token: c.users.manager.token }))).length).toBe(3);
  });

  itIf(existsSync(HEY_API), NEEDS_GENERATOR)(
    "a client generated by @hey-api/openapi-ts at its defaults compiles under strict, sets each field's type and filters by it",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'hr-hey-api-'));
      try {
        const res = await fetch(`${baseUrl}/openapi.json`, { headers: { authorization: `Bearer ${c.users.admin.token}` } });
        writeFileSync(join(dir, 'openapi.json'), await res.text());
        const generated = spawnSync(process.execPath, [HEY_API, '-i', join(dir, 'openapi.json'), '-o', join(dir, 'out')], {
          encoding: 'utf8',
          cwd: dir,
        });
        expect([generated.status, generated.stderr]).toEqual([0, '']);
        writeFileSync(
          join(dir, 'use.ts'),
          [
            "import { client } from './out/client.gen';",
            "import { getEmployees, listEmployees, updateEmployees } from './out/sdk.gen';",
            'export async function use(baseUrl: string, token: string, id: number) {',
            '  client.setConfig({ baseUrl, auth: token });',
            "  const custom_fields = { size: 'M' as const, zz_last: true, aa_first: false };",
            '  const put = await updateEmployees({ path: { id }, body: { custom_fields } });',
            '  const one = await getEmployees({ path: { id } });',
            "  const bySize = await listEmployees({ query: { limit: 100, filters: { 'custom.size': 'M' } } });",
            "  const byFlag = await listEmployees({ query: { limit: 100, filters: { 'custom.zz_last': true } } });",
            '  return {',
            '    put: put.response?.status,',
            '    values: one.data?.data.custom_fields,',
            '    bySize: (bySize.data?.data ?? []).map((e) => e.id),',
            '    byFlag: (byFlag.data?.data ?? []).map((e) => e.id),',
            '  };',
            '}',
            '// @ts-expect-error not an option of the select',
            "export const option: Parameters<typeof updateEmployees>[0]['body'] = { custom_fields: { size: 'XXL' } };",
            '// @ts-expect-error not a field one filters by',
            "export const filter: Parameters<typeof listEmployees>[0] = { query: { filters: { 'custom.nope': 'x' } } };",
          ].join('\n'),
        );
        const tsc = spawnSync(
          process.execPath,
          [
            require.resolve('typescript/bin/tsc'),
            '--noEmit',
            '--strict',
            '--skipLibCheck',
            '--target',
            'es2022',
            '--module',
            'nodenext',
            join(dir, 'use.ts'),
          ],
          { encoding: 'utf8', cwd: dir },
        );
        expect([tsc.status, tsc.stdout]).toEqual([0, '']);
        // And it runs: jest compiles the generated TypeScript as it compiles the suites.
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const { use } = require(join(dir, 'use.ts')) as {
          use: (u: string, t: string, id: number) => Promise<Record<string, unknown>>;
        };
        const done = await use(baseUrl, c.users.admin.token, c.emp.report2);
        expect(done).toMatchObject({ put: 200, values: { size: 'M', zz_last: true, aa_first: false } });
        expect(done.bySize).toEqual([c.emp.report2]);
        expect(done.byFlag).toEqual([c.emp.report2]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );

  itIf(existsSync(GENERATOR), NEEDS_GENERATOR)(
    "a client generated from the installation's document by openapi-typescript at its defaults types the custom fields",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'hr-typed-'));
      try {
        const res = await fetch(`${baseUrl}/openapi.json`, { headers: { authorization: `Bearer ${c.users.admin.token}` } });
        writeFileSync(join(dir, 'openapi.json'), await res.text());
        const generated = spawnSync(process.execPath, [GENERATOR, join(dir, 'openapi.json'), '-o', join(dir, 'schema.d.ts')], {
          encoding: 'utf8',
        });
        expect([generated.status, generated.stderr.includes('rror')]).toEqual([0, false]);
        // Typed: the select's option and the booleans compile; another option, a string for a boolean
        // and an unknown key must not (an unused @ts-expect-error fails the compilation).
        writeFileSync(
          join(dir, 'use.ts'),
          [
            "import type { components } from './schema';",
            "type Custom = NonNullable<components['schemas']['UpdateEmployeeDto']['custom_fields']>;",
            "export const fine: Custom = { size: 'M', zz_last: true, aa_first: null };",
            '// @ts-expect-error not an option of the select',
            "export const option: Custom = { size: 'XXL' };",
            '// @ts-expect-error a boolean field',
            "export const text: Custom = { zz_last: 'yes' };",
            '// @ts-expect-error no such field',
            'export const unknown: Custom = { nope: 1 };',
          ].join('\n'),
        );
        const tsc = spawnSync(
          process.execPath,
          [require.resolve('typescript/bin/tsc'), '--noEmit', '--strict', '--skipLibCheck', join(dir, 'use.ts')],
          { encoding: 'utf8', cwd: dir },
        );
        expect([tsc.status, tsc.stdout]).toEqual([0, '']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
