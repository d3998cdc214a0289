import { Logger } from '@nestjs/common';
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

  // Issue 41, item 8: `logger.error({ err, import: 7 }, 'import failed')` was logged as "[object Object]", without the error.
  it("a pino-style object through Nest's Logger logs its fields, the error's stack and the text", () => {
    const { lines, logger } = capture();
    Logger.overrideLogger(logger);
    try {
      const err = new Error('duplicate key');
      new Logger('Imports').error({ err, import: 7 }, 'import failed');
      new Logger('Imports').warn({ job: 'x1' }, 'slow');
      new Logger('Imports').error('plain', 'a stack');
      new Logger('Imports').error(new Error('thrown'));
    } finally {
      Logger.overrideLogger(true);
    }
    expect(lines[0]).toMatchObject({ msg: 'import failed', context: 'Imports', import: 7, err: { message: 'duplicate key' } });
    expect((lines[0].err as { stack: string }).stack).toContain('logger.spec');
    expect(lines[1]).toMatchObject({ msg: 'slow', context: 'Imports', job: 'x1' });
    expect(lines[2]).toMatchObject({ msg: 'plain', context: 'Imports', trace: 'a stack' });
    expect(lines[3]).toMatchObject({ msg: 'thrown', context: 'Imports', err: { message: 'thrown' } });
  });
});

describe('start-up noise (Hardening IV item 10)', () => {
  it('logs the routes and modules Nest maps at debug, everything else Nest says at info', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _e, cb) {
        lines.push(chunk.toString());
        cb();
      },
    });
    const logger = new PinoNestLogger(createRootLogger('info', sink));
    logger.log('Mapped {/app/api/employees, GET} route', 'RouterExplorer');
    logger.log('EmployeesController {/app/api/employees}:', 'RoutesResolver');
    logger.log('AppModule dependencies initialized', 'InstanceLoader');
    logger.log('Nest application successfully started', 'NestApplication');
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['Nest application successfully started']);
  });
});
