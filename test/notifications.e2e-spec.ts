import { describeIf, NEEDS_SERVERS } from './helpers/skip';
import { request as httpRequest, IncomingMessage } from 'node:http';
import { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { OutboxRelay } from '../src/common/outbox/outbox-relay';
import { buildCompany, Company } from './helpers/company';
import { apiCaller, createTestApp, INTEGRATION, okCaller, TestApp, until } from './helpers/test-app';

type Item = { id: number; kind: string; title: string; body: string; link: string | null; read: boolean };

/** An open notification stream over real HTTP: the events it received so far, parsed. */
function openStream(port: number, token: string, lastEventId?: string) {
  const events: Array<{ id?: string; event: string; data: unknown }> = [];
  let buffer = '';
  let response: IncomingMessage | null = null;
  const opened = new Promise<number>((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/app/api/notifications/stream',
        headers: { authorization: `Bearer ${token}`, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
      },
      (res) => {
        response = res;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const fields = Object.fromEntries(
              block
                .split('\n')
                .filter((l) => l && !l.startsWith(':'))
                .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]),
            );
            if (fields.event) events.push({ id: fields.id, event: fields.event, data: JSON.parse(fields.data) });
          }
        });
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end();
  });
  return { events, opened, close: () => response?.destroy() };
}

/** Notifications (issue 30): made from the outbox, one per event and user, the feed, preferences, the stream. */
describe('notifications', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let ok: ReturnType<typeof okCaller>;
  let admin: string;
  let annual: number;
  let port = 0;
  const dispatch = () => t.app.get(OutboxRelay).relay();
  const feed = async (token: string, query = ''): Promise<Item[]> => ok('GET', `/notifications${query}`, token);

  beforeAll(async () => {
    t = await createTestApp({
      OUTBOX_RELAY_MS: '600000',
      NOTIFICATION_STREAMS_PER_USER: '2',
      NOTIFICATION_HEARTBEAT_MS: '200',
    });
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    ok = okCaller(t.app);
    admin = c.users.admin.token;
    await ok('POST', '/leave-periods', admin, { name: '2027', date_start: '2027-01-01', date_end: '2027-12-31' });
    annual = (await ok('POST', '/leave-types', admin, { name: 'Annual', default_days: 20 })).id;
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
    await dispatch(); // the fixture's own events (none notify)
  });
  afterAll(() => t.close());

  it("a leave request notifies its employee's supervisor once; the decision notifies the requester", async () => {
    const leave = await ok('POST', '/leaves', c.users.employee.token, {
      leave_type: annual,
      date_start: '2027-03-02',
      date_end: '2027-03-03',
    });
    await dispatch();
    await dispatch(); // a second pass adds nothing
    const mine = await feed(c.users.manager.token);
    expect(mine).toEqual([
      expect.objectContaining({
        kind: 'leave.requested',
        title: expect.stringMatching(/ requests leave$/),
        body: expect.stringContaining('from 2027-03-02 to 2027-03-03'),
        link: `/leaves/${leave.id}`,
        read: false,
      }),
    ]);
    expect(await ok('GET', '/notifications/unread-count', c.users.manager.token)).toEqual({ count: 1 });
    expect(await feed(c.users.employee.token)).toEqual([]);

    await ok('POST', `/leaves/${leave.id}/approve`, c.users.manager.token);
    await dispatch();
    expect(await feed(c.users.employee.token)).toEqual([
      expect.objectContaining({ kind: 'leave.decided', title: 'Your leave request is approved', link: `/leaves/${leave.id}` }),
    ]);
  });

  it('a refused (rolled back) request notifies nobody', async () => {
    const before = Number((await t.app.get(DataSource).query('SELECT COUNT(*) AS n FROM notifications'))[0].n);
    const refused = await call('POST', '/leaves', c.users.employee.token, {
      leave_type: annual,
      date_start: '2027-03-03',
      date_end: '2027-03-03',
    });
    expect(refused.statusCode).toBe(409); // overlaps the approved one
    await dispatch();
    expect(Number((await t.app.get(DataSource).query('SELECT COUNT(*) AS n FROM notifications'))[0].n)).toBe(before);
  });

  it('reads and marks only the caller’s own: another user’s notification is 404', async () => {
    const [item] = await feed(c.users.manager.token);
    const other = await call('POST', `/notifications/${item.id}/read`, c.users.employee.token);
    expect([other.statusCode, other.json().error.code]).toEqual([404, 'NOT_FOUND']);
    expect((await feed(c.users.manager.token))[0].read).toBe(false);
    expect(await ok('POST', `/notifications/${item.id}/read`, c.users.manager.token)).toMatchObject({ id: item.id, read: true });
    expect(await feed(c.users.manager.token, '?filters=%7B%22read%22%3Afalse%7D')).toEqual([]);
    expect(await ok('POST', '/notifications/read-all', c.users.employee.token)).toEqual({ marked: 1 });
    expect(await ok('GET', '/notifications/unread-count', c.users.employee.token)).toEqual({ count: 0 });
  });

  it('preferences: a kind switched off in the feed is not notified; a mandatory kind stays on; unknown kinds refused', async () => {
    const prefs = await ok('GET', '/users/me/notification-preferences', c.users.manager.token);
    expect(prefs.find((p: { kind: string }) => p.kind === 'leave.requested')).toEqual({
      kind: 'leave.requested',
      description: expect.any(String),
      email: true,
      in_app: true,
      frequency: 'immediate',
      mandatory: false,
    });
    const off = await ok('PUT', '/users/me/notification-preferences', c.users.manager.token, {
      items: [{ kind: 'leave.requested', in_app: false, frequency: 'daily' }],
    });
    expect(off.find((p: { kind: string }) => p.kind === 'leave.requested')).toMatchObject({
      in_app: false,
      email: true,
      frequency: 'daily',
    });
    const bad = await call('PUT', '/users/me/notification-preferences', c.users.manager.token, {
      items: [
        { kind: 'payslip.sent', in_app: false },
        { kind: 'coffee.ready', email: true },
      ],
    });
    expect(bad.json().error.details.map((d: { field: string }) => d.field)).toEqual(['items[0].in_app', 'items[1].kind']);

    const before = (await feed(c.users.manager.token)).length;
    await ok('POST', '/leaves', c.users.employee.token, { leave_type: annual, date_start: '2027-04-06', date_end: '2027-04-06' });
    await dispatch();
    expect(await feed(c.users.manager.token)).toHaveLength(before);
    await ok('PUT', '/users/me/notification-preferences', c.users.manager.token, {
      items: [{ kind: 'leave.requested', in_app: true }],
    });
  });

  it('a task an Admin assigns notifies its user', async () => {
    const task = await ok('POST', '/tasks', admin, {
      user: c.users.orphan.user.id,
      title: 'Sign the handbook',
      priority: 'High',
    });
    await dispatch();
    expect(await feed(c.users.orphan.token)).toEqual([
      expect.objectContaining({
        kind: 'task.assigned',
        title: 'New task: Sign the handbook',
        body: 'Sign the handbook, priority High.',
        link: '/tasks',
      }),
    ]);
    expect(task.id).toEqual(expect.any(Number));
  });

  it('the stream: anonymous or a bad token is 401; every level opens its own', async () => {
    for (const token of ['', 'hra_not-a-token']) {
      const anonymous = openStream(port, token);
      expect(await anonymous.opened).toBe(401);
      anonymous.close();
    }
    for (const user of [c.users.admin, c.users.restricted, c.users.manager, c.users.employee]) {
      const stream = openStream(port, user.token);
      expect(await stream.opened).toBe(200);
      await until(() => stream.events.some((e) => e.event === 'unread'), 5000);
      stream.close();
    }
  });

  it('the stream delivers new notifications with their ids and unread count; Last-Event-ID resumes without loss or duplicates', async () => {
    const user = c.users.orphan;
    const first = openStream(port, user.token);
    expect(await first.opened).toBe(200);
    await until(() => first.events.some((e) => e.event === 'unread'), 5000);
    await ok('POST', '/tasks', admin, { user: user.user.id, title: 'One' });
    await dispatch();
    await until(() => first.events.some((e) => e.event === 'notification'), 5000);
    const one = first.events.find((e) => e.event === 'notification')!;
    expect(one.data).toMatchObject({ kind: 'task.assigned', title: 'New task: One' });
    expect(one.id).toBe(String((one.data as { id: number }).id));
    await until(() => first.events.filter((e) => e.event === 'unread').length >= 2, 5000);
    first.close();

    // Two more while no stream is open; a reconnection after "One" gets exactly those, in order.
    await ok('POST', '/tasks', admin, { user: user.user.id, title: 'Two' });
    await ok('POST', '/tasks', admin, { user: user.user.id, title: 'Three' });
    await dispatch();
    const again = openStream(port, user.token, one.id);
    expect(await again.opened).toBe(200);
    await until(() => again.events.filter((e) => e.event === 'notification').length >= 2, 5000);
    await ok('POST', '/tasks', admin, { user: user.user.id, title: 'Four' });
    await dispatch();
    await until(() => again.events.filter((e) => e.event === 'notification').length >= 3, 5000);
    await new Promise((r) => setTimeout(r, 300));
    expect(again.events.filter((e) => e.event === 'notification').map((e) => (e.data as { title: string }).title)).toEqual([
      'New task: Two',
      'New task: Three',
      'New task: Four',
    ]);

    // At most NOTIFICATION_STREAMS_PER_USER (2) open per user.
    const second = openStream(port, user.token);
    expect(await second.opened).toBe(200);
    const third = openStream(port, user.token);
    expect(await third.opened).toBe(429);
    again.close();
    second.close();
    third.close();
  });
});

/** Two API processes on one database and Redis: a notification made by one reaches a stream open on the other. */
describeIf(INTEGRATION, NEEDS_SERVERS)('notifications across API processes (MariaDB + Redis)', () => {
  let t: TestApp;
  let other: TestApp;
  let c: Company;

  beforeAll(async () => {
    t = await createTestApp({ OUTBOX_RELAY_MS: '600000' });
    // The same database and key prefix (the pub/sub channel): another process of the same installation.
    other = await createTestApp({ OUTBOX_RELAY_MS: '600000', QUEUE_PREFIX: t.config.queuePrefix }, { keepDatabase: true });
    c = await buildCompany(t.app);
    await t.app.listen(0, '127.0.0.1');
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  it('the stream on one process delivers a notification the other process made', async () => {
    const port = (t.app.getHttpServer().address() as AddressInfo).port;
    const stream = openStream(port, c.users.employee.token);
    expect(await stream.opened).toBe(200);
    await until(() => stream.events.some((e) => e.event === 'unread'), 5000);
    try {
      await okCaller(other.app)('POST', '/tasks', c.users.admin.token, {
        user: c.users.employee.user.id,
        title: 'Across processes',
      });
      await other.app.get(OutboxRelay).relay();
      await until(() => stream.events.some((e) => e.event === 'notification'), 5000);
      expect(stream.events.find((e) => e.event === 'notification')!.data).toMatchObject({ title: 'New task: Across processes' });
    } finally {
      stream.close();
    }
  });
});
