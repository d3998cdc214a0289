import { itIf, NEEDS_SERVERS } from './helpers/skip';
import { randomUUID } from 'node:crypto';
import { getQueueToken } from '@nestjs/bull';
import { Queue } from 'bull';
import { JobQueue } from '../src/common/queue/job-queue.service';
import { INTEGRATION, TestApp, createTestApp, sleep, until, testJob } from './helpers/test-app';

describe(`job queue facade (${INTEGRATION ? 'Bull on Redis' : 'in-process runner'})`, () => {
  let t: TestApp;
  let jobs: JobQueue;
  const run = randomUUID().slice(0, 8);

  beforeAll(async () => {
    t = await createTestApp();
    jobs = t.app.get(JobQueue);
  });
  afterAll(() => t?.close());

  it("schedules the application's periodic work as jobs: stalled-run recovery, the outbox relay (issue 42), the purge, SQLite's statistics (issue 26), documents' expiry and file removals (issue 28), the mail outbox's e-mails due (issues 29, 42), notifications (issue 30), leave accruals (issue 31), dated changes and terminations taking effect (issue 43), late approval steps escalating (issue 45), overdue checklist items (issue 67), expired personal-data exports and retention (issue 69)", () => {
    expect(jobs.scheduled()).toEqual(
      new Map([
        ['schedule:outbox-relay', t.config.outbox.relayMs],
        ['schedule:payroll-recover-stalled', 60_000],
        ['schedule:imports-recover-stalled', 60_000],
        ['schedule:maintenance-purge', 86_400_000],
        ['schedule:documents-expiry', 86_400_000],
        ['schedule:documents-remove-files', 3_600_000],
        ['schedule:mail-outbox', 30_000],
        ['schedule:notification-emails', t.config.notifications.emailSweepMs],
        ['schedule:notification-reminders', 3_600_000],
        ['schedule:leave-accruals', 86_400_000],
        ['schedule:employment-changes', 300_000],
        ['schedule:approval-escalation', 900_000],
        ['schedule:checklist-overdue', 3_600_000],
        ['schedule:personal-data-exports', 600_000],
        ['schedule:retention', 86_400_000],
        // MariaDB keeps its own statistics.
        ...(t.config.database.type === 'mysql' ? [] : [['schedule:sqlite-statistics', 3_600_000] as const]),
      ]),
    );
  });

  it('uses Bull when REDIS_URL is set and the in-process runner otherwise', () => {
    expect(jobs.kind).toBe(INTEGRATION && t.config.redisUrl ? 'bull' : 'in-process');
  });

  it('runs a job with its data; the first attempt reports completed', async () => {
    const def = testJob<{ n: number }>('mail', `double-${run}`, { attempts: 1, backoffMs: 10 });
    const seen: Array<{ n: number; attempt: number }> = [];
    jobs.register(def, async (data, ctx) => {
      seen.push({ n: data.n * 2, attempt: ctx.attempt });
    });
    const job = await jobs.add(def, { n: 21 });
    await expect(job.firstAttempt(5000)).resolves.toBe('completed');
    expect(seen).toEqual([{ n: 42, attempt: 1 }]);
  });

  it('retries a failing job with exponential backoff until it succeeds', async () => {
    const def = testJob<Record<string, never>>('mail', `flaky-${run}`, { attempts: 3, backoffMs: 100 });
    const times: number[] = [];
    jobs.register(def, async () => {
      times.push(Date.now());
      if (times.length < 3) throw new Error('SMTP says no');
    });
    const job = await jobs.add(def, {});
    await expect(job.firstAttempt(5000)).resolves.toBe('failed');
    await until(() => times.length === 3, 5000);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(90);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(190); // 100 ms, then 200 ms
    await sleep(300);
    expect(times).toHaveLength(3);
  });

  it("gives up after the policy's attempts", async () => {
    const def = testJob<Record<string, never>>('payroll', `doomed-${run}`, { attempts: 2, backoffMs: 20 });
    let calls = 0;
    jobs.register(def, async () => {
      calls += 1;
      throw new Error('always');
    });
    await jobs.add(def, {});
    await until(() => calls === 2, 5000);
    await sleep(300);
    expect(calls).toBe(2);
  });

  it('reports timeout when the first attempt outlasts the wait, and the job still finishes', async () => {
    const def = testJob<Record<string, never>>('mail', `slow-${run}`, { attempts: 1, backoffMs: 10 });
    let done = false;
    jobs.register(def, async () => {
      await sleep(400);
      done = true;
    });
    const job = await jobs.add(def, {});
    await expect(job.firstAttempt(50)).resolves.toBe('timeout');
    await until(() => done, 5000);
    await expect(job.firstAttempt(2000)).resolves.toBe('completed');
  });

  it('de-duplicates by job id: one run for the same id', async () => {
    const def = testJob<Record<string, never>>('payroll', `once-${run}`, { attempts: 1, backoffMs: 10 });
    let calls = 0;
    jobs.register(def, async () => {
      calls += 1;
      await sleep(100);
    });
    const jobId = `payroll-7-v1-${run}`;
    const [a, b] = await Promise.all([jobs.add(def, {}, { jobId }), jobs.add(def, {}, { jobId })]);
    expect(a.id).toBe(jobId);
    expect(b.id).toBe(jobId);
    await expect(a.firstAttempt(5000)).resolves.toBe('completed');
    await jobs.add(def, {}, { jobId });
    await sleep(300);
    expect(calls).toBe(1);
  });
});

describe('shutdown', () => {
  it('waits for a running job before the application closes', async () => {
    const t = await createTestApp();
    const jobs = t.app.get(JobQueue);
    const def = testJob<Record<string, never>>('mail', `drain-${randomUUID().slice(0, 8)}`, { attempts: 1, backoffMs: 10 });
    let started = false;
    let finished = false;
    jobs.register(def, async () => {
      started = true;
      await sleep(300);
      finished = true;
    });
    await jobs.add(def, {});
    await until(() => started, 5000);
    await t.close();
    expect(finished).toBe(true);
  });
});

describe('a scheduled job across processes', () => {
  itIf(INTEGRATION, NEEDS_SERVERS)('two workers on one Redis run each interval of a scheduled job once (issue 26)', async () => {
    const prefix = `${process.env.QUEUE_PREFIX ?? 'hr'}:sched-${randomUUID().slice(0, 8)}`;
    const a = await createTestApp({ QUEUE_PREFIX: prefix });
    const b = await createTestApp({ QUEUE_PREFIX: prefix }, { keepDatabase: true });
    try {
      const def = testJob<Record<string, never>>('schedule', `tick-${randomUUID().slice(0, 8)}`);
      const runs: string[] = [];
      for (const [who, app] of [
        ['a', a],
        ['b', b],
      ] as const) {
        const jobs = app.app.get(JobQueue);
        jobs.register(def, async () => {
          runs.push(who);
        });
        await jobs.schedule(def, 500);
      }
      const started = Date.now();
      await sleep(3200);
      const intervals = Math.floor((Date.now() - started) / 500);
      expect(runs.length).toBeGreaterThanOrEqual(intervals - 2);
      expect(runs.length).toBeLessThanOrEqual(intervals + 1); // once each, not once per worker
    } finally {
      await b.close();
      await a.close();
    }
  });
});

describe('a schedule an upgrade retired', () => {
  itIf(INTEGRATION, NEEDS_SERVERS)(
    'is removed from Redis when a consumer of the release that retired it starts, not failed at every interval (issue 42)',
    async () => {
      const prefix = `${process.env.QUEUE_PREFIX ?? 'hr'}:retired-${randomUUID().slice(0, 8)}`;
      const name = 'payslip-deliveries'; // RETIRED_SCHEDULES
      const before = await createTestApp({ QUEUE_PREFIX: prefix });
      const schedules = () => before.app.get<Queue>(getQueueToken('schedule')).getRepeatableJobs();
      try {
        // An earlier release's schedule, as it left it in Redis.
        const def = testJob<Record<string, never>>('schedule', name);
        before.app.get(JobQueue).register(def, async () => undefined);
        await before.app.get(JobQueue).schedule(def, 60_000);
        expect((await schedules()).map((j) => j.name)).toContain(name);
        // The next release: a process without the handler starts on the same Redis.
        const after = await createTestApp({ QUEUE_PREFIX: prefix }, { keepDatabase: true });
        try {
          expect((await schedules()).map((j) => j.name)).not.toContain(name);
          expect(after.logs.join('\n')).toContain(`scheduled job schedule:${name} was retired`);
          // The release's own schedules stay.
          expect((await schedules()).map((j) => j.name)).toContain('outbox-relay');
        } finally {
          await after.close();
        }
      } finally {
        await before.close();
      }
    },
  );
});
