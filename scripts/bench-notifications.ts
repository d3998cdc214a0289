/**
 * Notifications at volume, run by hand: `npm run bench:notifications` (SQLite file in a temp dir,
 * the in-process job runner), or with DATABASE_URL=mysql://... (that database is emptied first!)
 * and REDIS_URL (Bull on Redis, the pub/sub fan-out). This process is the API and the worker.
 * 1. Latency: a manager's stream is open over HTTP; 100 leave requests by its reports, a random
 *    0-1 s apart; from each request's answer (committed) to the notification on the stream (and to
 *    its leave.requested webhook at a receiver on loopback, issue 42), with
 *    the default relay interval (OUTBOX_RELAY_MS, 250 ms).
 * 2. A burst: one announcement-sized write of 10 000 notifications (10 000 users), then each
 *    e-mailed to an SMTP sink on loopback: seconds until the sink has them all.
 * 3. Streams: 1 000 open streams (1 000 users) held by this process: its RSS before and after
 *    (the clients' sockets are in this process too: an upper bound of the server's share).
 * Targets (issue 30): p50 ≤ 1.5 s, p99 ≤ 3 s; 10 000 e-mails ≤ 2 min; 1 000 streams ≤ +100 MiB.
 */
import 'reflect-metadata';
import { createServer, request as httpRequest } from 'node:http';
import { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { TokenService } from '../src/auth/token.service';
import { transaction } from '../src/common/database/transaction';
import { NotificationWriter } from '../src/notifications/notification-writer.service';
import { ReferenceService } from '../src/reference/reference.service';
import { User } from '../src/users/entities/user.entity';
import { UsersService } from '../src/users/users.service';
import { EmployeesService } from '../src/employees/employees.service';
import { BENCH_PASSWORD, bulkInsert, numberArg, smtpSink, sqlTime, withBenchApp } from './bench-tools';

const SAMPLES = numberArg('samples', 100);
const BURST = numberArg('burst', 10_000);
const STREAMS = numberArg('streams', 1000);

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An open SSE stream: calls `onEvent(name, data)` per event; `close()` ends it. */
function openStream(port: number, token: string, onEvent: (event: string, data: string) => void): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path: '/app/api/notifications/stream', headers: { authorization: `Bearer ${token}` } },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream: ${res.statusCode}`));
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (event && data) onEvent(event, data);
          }
        });
        resolve(() => res.destroy());
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function main(): Promise<void> {
  const sink = await smtpSink();
  try {
    await withBenchApp(
      'notifications',
      { SMTP_URL: sink.url, NOTIFICATION_STREAMS_PER_USER: '5', WEBHOOK_ALLOW_PRIVATE: 'true' },
      async (app, config) => {
        await app.listen(0, '127.0.0.1');
        const port = (app.getHttpServer().address() as AddressInfo).port;
        const ds = app.get(DataSource);
        const tokens = app.get(TokenService);
        const users = app.get(UsersService);
        const employees = app.get(EmployeesService);
        const tokenOf = async (u: User) => (await tokens.issue(u)).access_token;
        const call = async <T>(token: string, method: 'GET' | 'POST', url: string, payload?: object): Promise<T> => {
          const res = await app.inject({ method, url: `/app/api${url}`, headers: { authorization: `Bearer ${token}` }, payload });
          if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
          return res.json<{ data: T }>().data;
        };
        console.log(`${config.database.type}${config.redisUrl ? ' + Redis' : ''}, OUTBOX_RELAY_MS=${config.outbox.relayMs}`);

        // 1. Latency: 20 reports of one manager ask for days off; the manager's stream hears of each.
        const department = await app.get(ReferenceService).addDepartment('Bench', null);
        const person = (i: number, supervisor?: number) =>
          employees.create({
            employee_id: `NB${i}`,
            first_name: 'Bench',
            last_name: `Person ${i}`,
            joined_date: '2020-01-01',
            department,
            ...(supervisor ? { supervisor } : {}),
          });
        const boss = await person(0);
        const manager = await users.create({
          username: 'bench-manager',
          email: 'm@bench.test',
          password: BENCH_PASSWORD,
          level: 'Manager',
          employeeId: boss.id,
        });
        const reports: string[] = [];
        for (let i = 1; i <= 20; i++) {
          const e = await person(i, boss.id);
          reports.push(
            await tokenOf(
              await users.create({
                username: `bench-r${i}`,
                email: `r${i}@bench.test`,
                password: BENCH_PASSWORD,
                level: 'Employee',
                employeeId: e.id,
              }),
            ),
          );
        }
        const admin = await users.create({
          username: 'bench-admin',
          email: 'a@bench.test',
          password: BENCH_PASSWORD,
          level: 'Admin',
        });
        const adminToken = await tokenOf(admin);
        await call(adminToken, 'POST', '/leave-periods', {
          name: 'Bench 2027',
          date_start: '2027-01-01',
          date_end: '2027-12-31',
        });
        const leaveType = (
          await call<{ id: number }>(adminToken, 'POST', '/leave-types', { name: 'Bench leave', default_days: 30 })
        ).id;
        // The same requests' leave.requested webhook, to a receiver on loopback: committed → POST received.
        const hooked = new Map<number, number>();
        const receiver = createServer((req, res) => {
          const chunks: Buffer[] = [];
          req.on('data', (c: Buffer) => chunks.push(c));
          req.on('end', () => {
            hooked.set((JSON.parse(Buffer.concat(chunks).toString()) as { data: { id: number } }).data.id, Date.now());
            res.end('ok');
          });
        });
        await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
        await call(adminToken, 'POST', '/webhooks', {
          url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
          events: ['leave.requested'],
        });
        const arrived = new Map<string, number>();
        const close = await openStream(port, await tokenOf(manager), (event, data) => {
          if (event === 'notification') arrived.set((JSON.parse(data) as { link: string }).link, Date.now());
        });
        const days: string[] = [];
        for (let d = Date.UTC(2027, 0, 4); days.length < Math.ceil(SAMPLES / reports.length); d += 86_400_000)
          if (![0, 6].includes(new Date(d).getUTCDay())) days.push(new Date(d).toISOString().slice(0, 10));
        const latencies: number[] = [];
        const webhookLatencies: number[] = [];
        for (let i = 0; i < SAMPLES; i++) {
          const day = days[Math.floor(i / reports.length)];
          const leave = await call<{ id: number }>(reports[i % reports.length], 'POST', '/leaves', {
            leave_type: leaveType,
            date_start: day,
            date_end: day,
          });
          const committed = Date.now();
          const link = `/leaves/${leave.id}`;
          while (!arrived.has(link)) {
            if (Date.now() - committed > 10_000) throw new Error(`no notification for ${link} in 10 s`);
            await sleep(5);
          }
          latencies.push(arrived.get(link)! - committed);
          while (!hooked.has(leave.id)) {
            if (Date.now() - committed > 10_000) throw new Error(`no webhook for leave ${leave.id} in 10 s`);
            await sleep(5);
          }
          webhookLatencies.push(hooked.get(leave.id)! - committed);
          await sleep(Math.random() * 1000);
        }
        close();
        receiver.close();
        for (const [what, list] of [
          ["the approver's stream", latencies],
          ['the leave.requested webhook received', webhookLatencies],
        ] as const) {
          list.sort((a, b) => a - b);
          console.log(
            `latency, committed leave request → ${what} (${SAMPLES} requests): p50 ${pct(list, 50)} ms, ` +
              `p99 ${pct(list, 99)} ms, max ${list[list.length - 1]} ms`,
          );
        }

        // 2. A burst: one announcement to BURST users, each e-mailed.
        const now = sqlTime(Date.now());
        const [{ first }] = await ds.query<Array<{ first: number }>>('SELECT COALESCE(MAX(id), 0) + 1 AS first FROM users');
        const hash = (
          await ds.query<Array<{ password_hash: string }>>('SELECT password_hash FROM users WHERE id = ?', [admin.id])
        )[0].password_hash;
        await bulkInsert(
          ds,
          'users',
          [
            'username',
            'email',
            'password_hash',
            'user_level',
            'active',
            'must_change_password',
            'welcome_email_status',
            'created_at',
            'updated_at',
          ],
          BURST,
          (i) => [`bench-u${i}`, `u${i}@bench.test`, hash, 'Employee', 1, 0, 'none', now, now],
        );
        const ids = (
          await ds.query<Array<{ id: number }>>('SELECT id FROM users WHERE id >= ? ORDER BY id', [Number(first)])
        ).map((r) => Number(r.id));
        const before = sink.messages();
        const start = Date.now();
        const writer = app.get(NotificationWriter);
        const written = await transaction(ds, (em) =>
          writer.write(em, [
            {
              kind: 'task.assigned',
              userIds: ids,
              title: 'New task: Read the new handbook',
              body: 'Read the new handbook (due 2027-02-01), priority Normal.',
              link: '/tasks',
              sourceKey: 'bench:announcement',
            },
          ]),
        );
        const wroteMs = Date.now() - start;
        await writer.committed(written);
        while (sink.messages() - before < ids.length) {
          if (Date.now() - start > 600_000) throw new Error(`${sink.messages() - before} of ${ids.length} e-mails in 10 min`);
          await sleep(100);
        }
        const seconds = (Date.now() - start) / 1000;
        console.log(
          `burst: ${written.created.length} notifications written in ${wroteMs} ms; ${ids.length} e-mails accepted by the sink ` +
            `${seconds.toFixed(1)} s after the write began (${(ids.length / seconds).toFixed(0)} e-mails/s)`,
        );

        // 3. Streams: STREAMS users, one stream each.
        const holders = await ds.getRepository(User).find({ where: {}, order: { id: 'DESC' }, take: STREAMS });
        const streamTokens = await Promise.all(holders.map((u) => tokenOf(u)));
        global.gc?.();
        await sleep(500);
        const rssBefore = process.memoryUsage().rss / 1048576;
        const closers: Array<() => void> = [];
        for (let i = 0; i < streamTokens.length; i += 50)
          closers.push(...(await Promise.all(streamTokens.slice(i, i + 50).map((tk) => openStream(port, tk, () => undefined)))));
        await sleep(2000);
        global.gc?.();
        const rssAfter = process.memoryUsage().rss / 1048576;
        console.log(
          `streams: ${closers.length} open; RSS ${rssBefore.toFixed(0)} MiB before, ${rssAfter.toFixed(0)} MiB after ` +
            `(+${(rssAfter - rssBefore).toFixed(0)} MiB, server and clients in this process)`,
        );
        for (const c of closers) c();
      },
    );
  } finally {
    await sink.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
