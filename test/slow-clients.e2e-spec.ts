import { itIf, LONG, NEEDS_LONG } from './helpers/skip';
import { connect, Socket } from 'node:net';
import { AddressInfo } from 'node:net';
import { createTestApp, createUser, itTimed, sleep, TestApp, until } from './helpers/test-app';

const itLong = itIf(LONG, NEEDS_LONG);

/**
 * Issue 41, item 3: sockets that declared a body and then sent a byte every 20 s were never closed;
 * 20 000 of them took every file descriptor and /health/live got resets. Here the bounds are short
 * (a JSON body within 2 s, a file at 10 kB/s over 2 s, headers within 2 s) so the test runs in seconds.
 */
describe('slow clients are cut; the service answers throughout (issue 41, item 3)', () => {
  let t: TestApp;
  let port: number;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp({
      HTTP_REQUEST_TIMEOUT: '2s',
      HTTP_HEADERS_TIMEOUT: '2s',
      HTTP_UPLOAD_RATE_WINDOW: '2s',
      HTTP_UPLOAD_MIN_RATE: '10kb',
    });
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
    admin = (await createUser(t.app, 'Admin')).token;
  });
  afterAll(() => t.close());

  /** A socket that sends `head` and then nothing; resolves with what it received once closed. */
  const slow = (head: string) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (d) => (received += d.toString()));
    socket.on('error', () => undefined);
    const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
    socket.write(head);
    return { socket, closed };
  };
  const tokenRequest = (length: number) =>
    `POST /app/api/oauth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{`;

  // Timed (test:timing, alone): /health/live's answers are counted while 2 000 sockets trickle; beside
  // other steps on two cores it answered 3 times where it must 6 (CI, 2026-12-02).
  itTimed(
    '2 000 clients trickling a JSON body get a 408 and are closed after HTTP_REQUEST_TIMEOUT; /health/live answers meanwhile',
    async () => {
      const clients = Array.from({ length: 2000 }, () => slow(tokenRequest(100_000)));
      let closedCount = 0;
      for (const c of clients) void c.closed.then(() => closedCount++);
      const started = Date.now();
      const health: number[] = [];
      while (closedCount < clients.length && Date.now() - started < 15_000) {
        const res = await fetch(`http://127.0.0.1:${port}/app/api/health/live`);
        health.push(res.status);
        await sleep(100);
      }
      const answers = await Promise.all(clients.map((c) => c.closed));
      expect(closedCount).toBe(2000);
      expect(health.length).toBeGreaterThan(5);
      expect(health.every((s) => s === 200)).toBe(true);
      expect(answers[0]).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
      expect(JSON.parse(answers[0].split('\r\n\r\n')[1])).toMatchObject({ status: 'ERROR', error: { code: 'REQUEST_TIMEOUT' } });
    },
    30_000,
  );

  itLong(
    'a file upload slower than HTTP_UPLOAD_MIN_RATE is cut; one at the rate is not',
    async () => {
      const head = (length: number) =>
        `POST /app/api/imports?kind=employees HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${admin}\r\n` +
        `Content-Type: text/csv\r\nContent-Length: ${length}\r\n\r\n`;
      const crawling = slow(head(1_000_000));
      const steady = slow(head(60_000));
      // The steady one sends 60 kB over 3 s, twice the 10 kB/s minimum: at 5 kB every half second it
      // sat at the bound (10 kB = 10 240 bytes a second) and a late timer under load cut it. The
      // crawler sends 100 bytes a second.
      for (let i = 0; i < 6; i++) {
        steady.socket.write('x'.repeat(10_000));
        crawling.socket.write('x'.repeat(50));
        await sleep(500);
      }
      const cut = await crawling.closed;
      expect(cut).toMatch(/^HTTP\/1\.1 408/);
      expect(steady.socket.destroyed).toBe(false);
      steady.socket.destroy();
    },
    20_000,
  );

  itLong(
    'a connection that never finishes its headers is closed after HTTP_HEADERS_TIMEOUT',
    async () => {
      const c = slow('GET /app/api/health/live HTTP/1.1\r\nHost: x\r\n');
      const at = Date.now();
      await c.closed;
      expect(Date.now() - at).toBeLessThan(6_000);
      await until(() => c.socket.destroyed, 1000);
    },
    15_000,
  );
});
