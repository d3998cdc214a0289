import { Writable } from 'node:stream';
import { runAs, runInJob } from '../audit/audit-context';
import { InProcessRunner } from '../queue/in-process.runner';
import { JobQueue } from '../queue/job-queue.service';
import { defineJob } from '../queue/queue.constants';
import { createRootLogger, PinoNestLogger, redactUrl } from './logger';

describe('logger', () => {
  it('removes credentials from log lines', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _e, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const log = createRootLogger('info', sink);
    log.info(
      { req: { headers: { authorization: 'Bearer hra_secret' } }, body: { password: 'p4ss', refresh_token: 'hrr_x' } },
      'x',
    );
    log.info({ req: { method: 'GET', url: '/x?access_token=hra_abc&page=2' } }, 'y');
    const all = lines.join('');
    expect(all).not.toContain('hra_secret');
    expect(all).not.toContain('p4ss');
    expect(all).not.toContain('hrr_x');
    expect(all).not.toContain('hra_abc');
    expect(all).toContain('page=2');
    expect(JSON.parse(lines[0])).toMatchObject({ level: 30, service: 'hr', msg: 'x' });
  });

  it('redacts token and password query parameters', () => {
    expect(redactUrl('/a?token=1&b=2&password=x')).toBe('/a?token=[REDACTED]&b=2&password=[REDACTED]');
  });
});

describe('log lines carry what they are part of (issue 26)', () => {
  const capture = () => {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk: Buffer, _e, cb) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        cb();
      },
    });
    return { lines, logger: new PinoNestLogger(createRootLogger('info', sink)) };
  };

  it("a service's line during a request has the request id; during a job the queue, the job id and the job's fields", () => {
    const { lines, logger } = capture();
    runAs('system', 'req-42', () => logger.warn('in a request', 'Payslips'));
    runInJob({ queue: 'payroll', id: 'payroll-7-abc', fields: { payroll: 7 } }, () => logger.log('in a job', 'Payroll'));
    logger.log('at boot', 'App');
    expect(
      lines.map(({ msg, context, reqId, queue, jobId, payroll }) => ({ msg, context, reqId, queue, jobId, payroll })),
    ).toEqual([
      { msg: 'in a request', context: 'Payslips', reqId: 'req-42', queue: undefined, jobId: undefined, payroll: undefined },
      { msg: 'in a job', context: 'Payroll', reqId: undefined, queue: 'payroll', jobId: 'payroll-7-abc', payroll: 7 },
      { msg: 'at boot', context: 'App', reqId: undefined, queue: undefined, jobId: undefined, payroll: undefined },
    ]);
  });

  it('JobQueue runs every handler in its job context, with the fields its definition names', async () => {
    const { lines, logger } = capture();
    const job = defineJob<{ payrollId: number }>('payroll', 'log-context-for-test', undefined, (d) => ({ payroll: d.payrollId }));
    const queue = new JobQueue(new InProcessRunner(), new Set(['payroll:log-context-for-test']));
    queue.register(job, async () => logger.log('working', 'Payroll'));
    await queue.onApplicationBootstrap();
    const added = await queue.add(job, { payrollId: 9 }, { jobId: 'job-9' });
    await expect(added.firstAttempt(2000)).resolves.toBe('completed');
    await queue.beforeApplicationShutdown();
    expect(lines).toEqual([expect.objectContaining({ msg: 'working', queue: 'payroll', jobId: 'job-9', payroll: 9 })]);
  });
});
