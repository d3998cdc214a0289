import { createServer } from 'node:http';
import { postJson } from './post';
import { ADDRESS_PROBLEM, isBlockedAddress, urlProblem } from './safe-address';

describe('webhook address checks (SSRF)', () => {
  it('blocks loopback, private, link-local, metadata, CGNAT and reserved addresses, v4, v6 and v4-mapped', () => {
    for (const ip of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.1.2.3',
      // Documentation, benchmarking, broadcast, 6to4 relay, AS112 (issue 24)
      '192.0.2.10',
      '198.51.100.1',
      '203.0.113.5',
      '198.18.0.1',
      '255.255.255.255',
      '192.88.99.1',
      // IPv6 forms that embed an IPv4 address, discard, documentation, Teredo, NAT64, site-local
      '::127.0.0.1',
      '::7f00:1',
      '::ffff:0:7f00:1',
      '2002:7f00:1::',
      '2002:0808:0808::1',
      '100::1',
      '2001:db8::1',
      '2001::1',
      '64:ff9b::7f00:1',
      'fec0::1',
      '3fff::1',
      'not an address',
    ])
      expect({ ip, blocked: isBlockedAddress(ip) }).toEqual({ ip, blocked: true });
    for (const ip of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8', '2a00:1450:4001:80b::200e'])
      expect({ ip, blocked: isBlockedAddress(ip) }).toEqual({ ip, blocked: false });
  });

  it('refuses such URLs at save time, names that resolve to them included, unless private addresses are allowed', async () => {
    for (const url of [
      'http://127.0.0.1/x',
      'http://10.0.0.1/',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]:8080/',
      'http://localhost:3000/',
    ])
      expect({ url, problem: await urlProblem(url, false) }).toEqual({
        url,
        problem: ADDRESS_PROBLEM,
      });
    // A name that does not resolve is told the same: no way to learn what resolves here.
    expect(await urlProblem('http://no-such-host.invalid/', false)).toBe(ADDRESS_PROBLEM);
    expect(ADDRESS_PROBLEM).not.toMatch(/\d/);
    expect(await urlProblem('http://localhost:3000/', true)).toBeNull();
    expect(await urlProblem('ftp://example.com/', true)).toBe('must be an http(s) URL');
    expect(await urlProblem('not a url', true)).toBe('must be an absolute http(s) URL');
  });

  it('re-resolves at delivery: a loopback receiver is never contacted unless allowed', async () => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits += 1;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const refused = await postJson(`http://localhost:${port}/`, '{}', {}, { timeoutMs: 2000, allowPrivate: false });
      expect(refused).toEqual({
        statusCode: null,
        durationMs: expect.any(Number),
        error: expect.stringMatching(/^localhost: not a public address$/),
      });
      expect(hits).toBe(0);
      const allowed = await postJson(`http://localhost:${port}/`, '{}', {}, { timeoutMs: 2000, allowPrivate: true });
      expect(allowed).toMatchObject({ statusCode: 200, error: null });
      expect(hits).toBe(1);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
