import { Writable } from 'node:stream';
import { createRootLogger } from './logger';
import { lazyChildLogger } from './request-logger';

function rootAt(level: 'warn' | 'info') {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const root = createRootLogger(level, destination);
  const child = jest.spyOn(root, 'child');
  return { root, lines, child };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('lazyChildLogger: a request logger that makes its pino child at the first enabled line', () => {
  it('makes no child for lines below the level (Fastify passes level "" for routes without their own)', async () => {
    const { root, lines, child } = rootAt('warn');
    const log = lazyChildLogger(root, { reqId: 'r-1' }, { level: '' });
    log.info({ res: { statusCode: 200 } }, 'request completed');
    log.debug('detail');
    log.trace('more');
    await flush();
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
    expect(log.level).toBe('warn');
  });

  it('writes enabled lines as pino child would: the request id bound, secrets redacted, once per request', async () => {
    const { root, lines, child } = rootAt('warn');
    const log = lazyChildLogger(root, { reqId: 'r-2' }, { level: '' });
    log.warn({ body: { password: 'secret-value' } }, 'first');
    log.error(new Error('boom'), 'second');
    log.info('not at warn');
    await flush();
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines.map((l) => [l.reqId, l.msg])).toEqual([
      ['r-2', 'first'],
      ['r-2', 'second'],
    ]);
    expect(lines[0].body).toEqual({ password: '[REDACTED]' });
    expect((lines[1].err as { message: string }).message).toBe('boom');
  });

  it("a route's own level decides, and child() binds more on top of the request id", async () => {
    const { root, lines } = rootAt('warn');
    const verbose = lazyChildLogger(root, { reqId: 'r-3' }, { level: 'info' });
    verbose.info('route at info');
    const quiet = lazyChildLogger(root, { reqId: 'r-4' }, { level: 'silent' });
    quiet.fatal('never');
    lazyChildLogger(root, { reqId: 'r-5' }, { level: '' }).child({ job: 7 }).warn('nested');
    await flush();
    expect(lines.map((l) => [l.reqId, l.msg, l.job])).toEqual([
      ['r-3', 'route at info', undefined],
      ['r-5', 'nested', 7],
    ]);
  });

  it('a level set on the request logger applies from then on', async () => {
    const { root, lines } = rootAt('warn');
    const log = lazyChildLogger(root, { reqId: 'r-6' }, { level: '' });
    log.level = 'info';
    log.info('now enabled');
    await flush();
    expect(lines.map((l) => l.msg)).toEqual(['now enabled']);
  });
});
