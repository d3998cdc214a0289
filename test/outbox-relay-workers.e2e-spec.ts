import { describeIf, NEEDS_SERVERS } from './helpers/skip';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { transaction } from '../src/common/database/transaction';
import { dataSourceOptions } from '../src/database/data-source';
import { recordEvents } from '../src/common/outbox/outbox';
import { OutboxRepository } from '../src/common/outbox/outbox.repository';
import { DIST, NodeProcess } from './helpers/node-process';
import { INTEGRATION, TestApp, createTestApp, createUser, okCaller, until } from './helpers/test-app';

/** A webhook receiver on loopback: how many times each webhook-id arrived. */
async function receiver() {
  const ids = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      ids.set(id, (ids.get(id) ?? 0) + 1);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`,
    ids,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Issue 42's acceptance: a worker killed with SIGKILL in the middle of a relay batch; after a new
 * worker has relayed everything, every subscriber has handled each event exactly once. On MariaDB
 * + Redis (worker processes), and on SQLite (API processes, which run the jobs themselves). Built service:
 * `npm run test:integration` builds first.
 */
describeIf(INTEGRATION, NEEDS_SERVERS)('outbox relay with worker processes killed mid-batch', () => {
  const cases: Array<
    [
      string,
      () => {
        api: Record<string, string>;
        /** Events recorded, then relayed by processes killed mid-batch. */
        events: number;
        /**
         * Stop each process at the first write of its first relay batch (test/helpers/pause-in-relay-batch.js),
         * inside the batch's transaction, where the SIGKILL finds it.
         */
        pauseInBatch?: boolean;
        script: 'main' | 'worker';
        worker: (api: TestApp) => Record<string, string>;
        cleanup: () => void;
      },
    ]
  > = [
    [
      'MariaDB + Redis',
      () => {
        const prefix = `${process.env.QUEUE_PREFIX ?? 'hr'}:relay-workers-${randomUUID().slice(0, 8)}`;
        return {
          api: { QUEUE_CONSUMER: 'false', QUEUE_PREFIX: prefix },
          events: 1000,
          script: 'worker' as const,
          worker: (api: TestApp) => ({
            DATABASE_URL: api.config.database.type === 'mysql' ? api.config.database.url : '',
            REDIS_URL: api.config.redisUrl ?? '',
            QUEUE_PREFIX: prefix,
          }),
          cleanup: () => undefined,
        };
      },
    ],
    [
      'SQLite (the API process, jobs in process)',
      () => {
        const dir = mkdtempSync(join(tmpdir(), 'hr-relay-'));
        const url = `sqlite:${join(dir, 'hr.sqlite')}`;
        return {
          // The seeding app relays nothing: the killed processes are handed every event.
          api: { DATABASE_URL: url, REDIS_URL: '', OUTBOX_RELAY_MS: '600000' },
          events: 1000,
          pauseInBatch: true,
          script: 'main' as const,
          worker: () => ({ DATABASE_URL: url, REDIS_URL: '', PORT: '0' }),
          cleanup: () => rmSync(dir, { recursive: true, force: true }),
        };
      },
    ],
  ];

  it.each(cases)(
    'on %s',
    async (_, setup) => {
      if (!existsSync(join(DIST, 'worker.js'))) throw new Error('dist/src/worker.js is missing: npm run build');
      const env = setup();
      const EVENTS = env.events;
      const r = await receiver();
      const api = await createTestApp({ ...env.api, WEBHOOK_ALLOW_PRIVATE: 'true' });
      const workers: NodeProcess[] = [];
      let closed = false;
      let bare: DataSource | undefined;
      try {
        const seeding = api.app.get(DataSource);
        const admin = await createUser(api.app, 'Admin');
        const employee = await createUser(api.app, 'Employee');
        await okCaller(api.app)('POST', '/webhooks', admin.token, { url: r.url, events: ['task.assigned'] });
        for (let i = 0; i < EVENTS; i += 500)
          await transaction(seeding, (em) =>
            recordEvents(
              em,
              Array.from({ length: 500 }, (_, k) => ({
                event: 'task.assigned' as const,
                data: { id: i + k, user: employee.user.id, title: `Task ${i + k}`, priority: 'Low', due_date: null, link: null },
              })),
            ),
          );
        const events = (
          await seeding.query<Array<{ event_id: string }>>("SELECT event_id FROM outbox_events WHERE event = 'task.assigned'")
        ).map((e) => e.event_id);
        expect(events).toHaveLength(EVENTS);
        // Every event sequenced now: a process that relays under the held write lock (SQLite) must
        // not wait to sequence before it announces a batch.
        const outbox = api.app.get(OutboxRepository);
        for (let from = await outbox.firstUnsequenced(); from !== null; from = await outbox.firstUnsequenced())
          await transaction(seeding, (em) => outbox.sequence(em, from, 5000));
        // The seeding app goes (it would relay too); the checks read through a bare connection.
        const workerVars = env.worker(api);
        const database = api.config.database;
        await api.close();
        closed = true;
        const ds = (bare = await new DataSource(dataSourceOptions(database)).initialize());
        const cursor = async (name: string) =>
          Number(
            (await ds.query<Array<{ last_seq: number }>>('SELECT last_seq FROM outbox_cursors WHERE subscriber = ?', [name]))[0]
              .last_seq,
          );
        const workerEnv = {
          LOG_LEVEL: 'debug',
          OUTBOX_RELAY_MS: '50',
          OUTBOX_RELAY_BATCH: '300',
          ...workerVars,
          WEBHOOK_ALLOW_PRIVATE: 'true',
          QUEUE_LOCK_MS: '2000',
          QUEUE_STALLED_CHECK_MS: '1000',
        };

        // Kill workers the moment they announce a batch (any subscriber's: a process writes its log
        // lines one at a time, and while better-sqlite3 runs a transaction the next one waits), until
        // one dies with its batch uncommitted. On SQLite each process stops inside its first batch
        // (pauseInBatch), so every kill lands in the middle.
        const pause = { NODE_OPTIONS: `--require ${join(__dirname, 'helpers', 'pause-in-relay-batch.js')}` };
        let midBatch = 0;
        for (let attempt = 0; attempt < 8 && midBatch < 2; attempt++) {
          const w = new NodeProcess(env.script, env.pauseInBatch ? { ...workerEnv, ...pause } : workerEnv);
          workers.push(w);
          // "handling seq from..to" from the relay; "paused ... at seq n" (the batch from n + 1 on) from the preload.
          const batch = /"msg":"(?:([\w-]+): handling seq (\d+)\.\.(\d+)|paused in a batch of ([\w-]+) at seq (\d+))"/;
          const announced = () =>
            w.lines
              .map((l) => batch.exec(l))
              .filter((m) => m !== null)
              .map((m): [string, number, number] =>
                m[1] ? [m[1], Number(m[2]), Number(m[3])] : [m[4], Number(m[5]) + 1, Number.MAX_SAFE_INTEGER],
              );
          // SIGKILL from the line's handler, within a millisecond of reading it.
          w.onLine((line) => {
            if (batch.test(line)) w.proc.kill('SIGKILL');
          });
          await until(() => announced().length > 0 || !w.running, 30_000).catch(() => undefined);
          await w.kill('SIGKILL');
          const batches = announced();
          if (!batches.length) throw new Error(`the worker announced no batch:\n${w.lines.join('\n')}`);
          const [subscriber, from, to] = batches[0];
          const at = await cursor(subscriber);
          if (at < to) {
            midBatch += 1;
            expect(at).toBeLessThan(from);
            // Its writes went with it: none of the batch's events has a notification.
            if (subscriber === 'notifications') {
              const [{ n }] = await ds.query<Array<{ n: number }>>(
                `SELECT COUNT(*) AS n FROM notifications WHERE source_key IN (SELECT CONCAT('event:', event_id) FROM outbox_events WHERE seq BETWEEN ? AND ?)`.replace(
                  "CONCAT('event:', event_id)",
                  database.type === 'mysql' ? "CONCAT('event:', event_id)" : "'event:' || event_id",
                ),
                [from, to],
              );
              expect(Number(n)).toBe(0);
            }
          }
        }
        expect(midBatch).toBeGreaterThan(0);

        const last = workers.length;
        const w = new NodeProcess(env.script, workerEnv);
        workers.push(w);
        const [{ max }] = await ds.query<Array<{ max: number }>>(
          "SELECT MAX(seq) AS max FROM outbox_events WHERE event = 'task.assigned'",
        );
        await until(
          async () =>
            (await cursor('notifications')) >= Number(max) && (await cursor('webhooks')) >= Number(max) && r.ids.size >= EVENTS,
          120_000,
        );
        expect(workers.length).toBe(last + 1);
        // Notifications: exactly one per event.
        const notified = await ds.query<Array<{ source_key: string; n: number }>>(
          "SELECT source_key, COUNT(*) AS n FROM notifications WHERE source_key LIKE 'event:%' AND kind = 'task.assigned' GROUP BY source_key",
        );
        expect(notified).toHaveLength(EVENTS);
        expect(notified.every((x) => Number(x.n) === 1)).toBe(true);
        // Webhooks: every event delivered, each recorded as delivered once.
        expect([...r.ids.keys()].sort()).toEqual(events.map((e) => `msg_${e}`).sort());
        const delivered = await ds.query<Array<{ n: number }>>(
          'SELECT COUNT(*) AS n FROM webhook_deliveries WHERE delivered = ? GROUP BY event_id HAVING COUNT(*) > 1',
          [true],
        );
        expect(delivered).toEqual([]);
        // A webhook-id may arrive twice only when a worker died during its POST (its job is taken up
        // again): at most the webhooks queue's concurrency (2) per worker killed.
        const twice = [...r.ids.values()].filter((n) => n > 1).length;
        expect(twice).toBeLessThanOrEqual(2 * last);
      } finally {
        for (const w of workers) if (w.running) await w.kill('SIGKILL');
        if (!closed) await api.close();
        await bare?.destroy();
        await r.close();
        env.cleanup();
      }
    },
    240_000,
  );
});
