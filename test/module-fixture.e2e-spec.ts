import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { buildOpenApiDocument } from '../src/app.factory';
import { PayrollInputsService } from '../src/payroll/runs/payroll-inputs.service';
import { KUDOS_MAXIMUM, KudosModule, KudosWithoutLoaderModule } from './fixtures/kudos/kudos.module';
import { KudosTable } from './fixtures/kudos/kudos.table';
import { buildCompany, Company } from './helpers/company';
import { itIf, NOT_DATABASE } from './helpers/skip';
import { apiCaller, bearer, createTestApp, INTEGRATION, okCaller, outboxEvents, TestApp, until } from './helpers/test-app';

/** An HTTP receiver on loopback: the JSON bodies posted to it. */
async function receiver() {
  const received: Array<{ type: string; data: { id: number } }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push(JSON.parse(body) as (typeof received)[number]);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Issue 64's acceptance: a module joins from its own folder. test/fixtures/kudos declares a
 * setting, an OpenAPI tag, an extension, a notification kind, a task source, an approval kind, a
 * webhook event, an import kind and a payroll input beside its code, and is added to the
 * application the way app.module adds a module; each of them then works, and nothing outside its
 * folder names it.
 */
describe('a module that joins from its own folder (test/fixtures/kudos)', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let ok: ReturnType<typeof okCaller>;
  let hooks: Awaited<ReturnType<typeof receiver>>;

  beforeAll(async () => {
    hooks = await receiver();
    t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', OUTBOX_RELAY_MS: '20' }, { imports: [KudosModule] });
    const q = t.app.get(DataSource).createQueryRunner();
    try {
      await new KudosTable().down(q);
      await new KudosTable().up(q);
    } finally {
      await q.release();
    }
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    ok = okCaller(t.app);
  });
  afterAll(async () => {
    const q = t?.app.get(DataSource).createQueryRunner();
    if (q) await new KudosTable().down(q).finally(() => q.release());
    await t?.close();
    await hooks.close();
  });

  it('its setting caps its route; its event reaches webhooks, the employee’s feed and the approvers’ tasks and inbox', async () => {
    const admin = c.users.admin.token;
    const settings = (await ok('GET', '/settings?limit=500', admin)) as Array<{ name: string; group: string }>;
    expect(settings.filter((s) => s.group === 'Kudos').map((s) => s.name)).toEqual([KUDOS_MAXIMUM]);
    expect((await call('PUT', '/settings', admin, { name: KUDOS_MAXIMUM, value: '0' })).statusCode).toBe(400);
    await ok('PUT', '/settings', admin, { name: KUDOS_MAXIMUM, value: '5' });
    const webhook = await ok('POST', '/webhooks', admin, { url: hooks.url, events: ['kudos.given'] });
    expect(webhook).toMatchObject({ events: ['kudos.given'], active: true });

    const body = { employee: c.emp.report1, points: 6, date: '2026-03-02' };
    const tooMany = await call('POST', '/kudos', c.users.manager.token, body);
    expect([tooMany.statusCode, tooMany.json().error.details]).toEqual([
      400,
      [{ field: 'points', message: `must be at most 5 (${KUDOS_MAXIMUM})` }],
    ]);
    const kudos = await ok('POST', '/kudos', c.users.manager.token, { ...body, points: 3 });
    expect(kudos).toEqual({ id: expect.any(Number), employee: c.emp.report1, points: 3, date: '2026-03-02' });

    expect(await outboxEvents(t.app, 'kudos.given')).toEqual([
      { event: 'kudos.given', data: { id: kudos.id, employee: c.emp.report1, changes: { points: [null, 3] } } },
    ]);
    await until(() => hooks.received.some((h) => h.type === 'kudos.given' && h.data.id === kudos.id), 10_000);
    type Item = { kind: string; link: string | null };
    await until(
      async () =>
        ((await ok('GET', '/notifications', c.users.employee.token)) as Item[]).some(
          (n) => n.kind === 'kudos.given' && n.link === `/kudos/${kudos.id}`,
        ),
      10_000,
    );
    // The employee's supervisor decides the chain's first step: the task and the inbox say so.
    type Task = { source: string; source_id: number; status: string };
    await until(
      async () =>
        ((await ok('GET', '/tasks', c.users.manager.token)) as Task[]).some(
          (x) => x.source === 'kudos-approval' && x.source_id === kudos.id && x.status === 'Open',
        ),
      10_000,
    );
    const pending = (await ok(
      'GET',
      `/approvals/pending?filters=${encodeURIComponent(JSON.stringify({ kind: 'kudos' }))}`,
      c.users.manager.token,
    )) as Array<Record<string, unknown>>;
    expect(pending).toEqual([expect.objectContaining({ kind: 'kudos', id: kudos.id, employee: c.emp.report1, step: 1 })]);
  });

  it('its payroll input is listed, validated on a column and loaded for a period', async () => {
    const admin = c.users.admin.token;
    const listed = (await ok('GET', '/payroll_config/calculation-hooks', admin)) as Array<{ code: string }>;
    expect(listed.at(-1)).toEqual({
      code: 'kudos_points',
      name: 'Kudos points',
      description: 'Points of kudos dated in the period.',
      args: [{ name: 'minimum', type: 'integer', required: false, description: 'only kudos of at least these points' }],
    });
    const column = { name: 'Kudos', variable: 'kudos', calculation_hook: 'kudos_points' };
    const bad = await call('POST', '/payroll_config/payroll-columns', admin, {
      ...column,
      calculation_hook_args: { minimum: 'x' },
    });
    expect([bad.statusCode, bad.json().error.details]).toEqual([
      400,
      [{ field: 'calculation_hook_args.minimum', message: 'must be an integer' }],
    ]);
    const made = await ok('POST', '/payroll_config/payroll-columns', admin, { ...column, calculation_hook_args: { minimum: 2 } });

    await ok('POST', '/kudos', admin, { employee: c.emp.report1, points: 1, date: '2026-03-20' });
    const second = await ok('POST', '/kudos', admin, { employee: c.emp.report1, points: 4, date: '2026-03-31' });
    await ok('POST', '/kudos', admin, { employee: c.emp.report1, points: 5, date: '2026-04-01' });
    const values = await t.app
      .get(PayrollInputsService)
      .hookInputs(
        [{ id: made.id, hook: 'kudos_points', args: { minimum: 2 } }],
        [c.emp.report1, c.emp.report2],
        '2026-03-01',
        '2026-03-31',
      );
    const first = ((await outboxEvents(t.app, 'kudos.given'))[0].data as { id: number }).id;
    expect(values.get(made.id)).toEqual(
      new Map([
        [c.emp.report1, { value: '7', records: [first, second.id] }],
        [c.emp.report2, { value: '0' }],
      ]),
    );
  });

  it('its import kind takes a file of rows through its own service', async () => {
    const admin = c.users.admin.token;
    const code = (await ok('GET', `/employees/${c.emp.report2}`, admin)).employee_id as string;
    const res = await t.app.inject({
      method: 'POST',
      url: '/app/api/imports?kind=kudos&dry_run=false&mode=valid-rows',
      headers: { ...bearer(admin), 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="kudos.csv"' },
      payload: `Employee ID,Points,Date\n${code},2,2026-05-04\nNOBODY,2,2026-05-04\n${code},9,2026-05-05\n`,
    });
    expect(res.statusCode).toBe(202);
    let record: Record<string, unknown> = {};
    await until(async () => {
      record = await ok('GET', `/imports/${res.json().data.id}`, admin);
      return ['Validated', 'Completed', 'Failed'].includes(record.status as string);
    }, 20_000);
    expect(record).toMatchObject({ kind: 'kudos', status: 'Completed', rows_total: 3, rows_valid: 1, rows_failed: 2 });
    const given = await outboxEvents(t.app, 'kudos.given');
    expect(given.at(-1)).toEqual({
      event: 'kudos.given',
      data: expect.objectContaining({ employee: c.emp.report2, changes: { points: [null, 2] } }),
    });
  });

  it('its tag, route and extension are in the document and the meta lists', async () => {
    const doc = buildOpenApiDocument(t.app, t.config);
    expect(doc.paths['/kudos'].post?.tags).toEqual(['Kudos']);
    expect(doc.tags?.map((tag) => tag.name)).toContain('Kudos');
    const extensions = (await ok('GET', '/meta/extensions?limit=500', c.users.employee.token)) as Array<{ code: string }>;
    expect(extensions.map((e) => e.code)).toContain('kudos');
  });

  // A start that fails leaves the servers' connections to the process that exits: run on SQLite only.
  itIf(!INTEGRATION, NOT_DATABASE)(
    'a payroll input it declares but whose loader it does not provide stops the start, naming it',
    async () => {
      await expect(createTestApp({}, { imports: [KudosWithoutLoaderModule] })).rejects.toThrow(
        'payroll inputs declared without a loader: kudos_points',
      );
    },
  );
});
