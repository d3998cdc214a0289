import { Writable } from 'node:stream';
import { createRootLogger, redactUrl } from './logger';

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
