import { DomainException } from '../common/errors/domain.exception';
import { clientKey } from './client-key';
import { HashGate } from './hash-gate';

/** Hardening IV item 21: the password hashes in flight are bounded per process, in JavaScript. */
describe('HashGate', () => {
  /** A hash that ends when told to; records the order hashes started in. */
  function harness() {
    const started: string[] = [];
    const finish: Array<() => void> = [];
    const work = (name: string) => () =>
      new Promise<string>((resolve) => {
        started.push(name);
        finish.push(() => resolve(name));
      });
    const endOne = async () => {
      finish.shift()!();
      await new Promise((r) => setImmediate(r));
    };
    return { started, work, endOne };
  }
  const errorOf = async (p: Promise<unknown>) => {
    try {
      await p;
      return null;
    } catch (err) {
      return err as DomainException;
    }
  };

  it('runs at most `concurrency` at once; the rest wait their turn', async () => {
    const gate = new HashGate({ concurrency: 2, waiting: 10, perClient: 5, maxWaitMs: 10_000 });
    const h = harness();
    const all = ['a', 'b', 'c', 'd'].map((n) => gate.run(n, h.work(n)));
    await new Promise((r) => setImmediate(r));
    expect([h.started, gate.state]).toEqual([['a', 'b'], { running: 2, waiting: 2 }]);
    await h.endOne();
    expect(h.started).toEqual(['a', 'b', 'c']);
    await h.endOne();
    await h.endOne();
    await h.endOne();
    expect(await Promise.all(all)).toEqual(['a', 'b', 'c', 'd']);
    expect(gate.state).toEqual({ running: 0, waiting: 0 });
  });

  it('turns go round the clients: a newcomer waits behind one hash per flooding client, not behind the flood', async () => {
    const gate = new HashGate({ concurrency: 1, waiting: 100, perClient: 3, maxWaitMs: 10_000 });
    const h = harness();
    const flood = [];
    for (let round = 0; round < 3; round++) for (const f of ['f1', 'f2', 'f3']) flood.push(gate.run(f, h.work(`${f}.${round}`)));
    const legit = gate.run('legit', h.work('legit'));
    for (let i = 0; i < 10; i++) await h.endOne();
    await Promise.all([...flood, legit]);
    // f1.0 ran at once; then one of each waiting client in turn: the newcomer fifth, not tenth.
    expect(h.started.slice(0, 6)).toEqual(['f1.0', 'f2.0', 'f3.0', 'f1.1', 'legit', 'f2.1']);
  });

  it('refuses a client past its share with 429, past the queue with 503, both with Retry-After, and after the longest wait', async () => {
    const gate = new HashGate({ concurrency: 1, waiting: 2, perClient: 2, maxWaitMs: 50 });
    const h = harness();
    const first = gate.run('a', h.work('a1'));
    const second = gate.run('a', h.work('a2'));
    const third = await errorOf(gate.run('a', h.work('a3')));
    expect([third?.code, third?.headers]).toEqual(['RATE_LIMITED', { 'Retry-After': '1' }]);
    const other = gate.run('b', h.work('b1'));
    const full = await errorOf(gate.run('c', h.work('c1')));
    expect([full?.code, full?.headers?.['Retry-After']]).toEqual(['SIGN_IN_BUSY', '1']);
    // Waited past maxWaitMs: 503, and its place is given back.
    const [late, otherLate] = await Promise.all([errorOf(second), errorOf(other)]);
    expect([late?.code, otherLate?.code]).toEqual(['SIGN_IN_BUSY', 'SIGN_IN_BUSY']);
    expect(gate.state).toEqual({ running: 1, waiting: 0 });
    await h.endOne();
    expect(await first).toBe('a1');
    // The service's own work (client null) has no per-client share.
    const own = [1, 2, 3].map((i) => gate.run(null, h.work(`own${i}`)));
    for (let i = 0; i < 3; i++) await h.endOne();
    expect(await Promise.all(own)).toEqual(['own1', 'own2', 'own3']);
  });
});

describe('clientKey', () => {
  it('an IPv6 address counts by its /64, an IPv4 (mapped too) by itself', () => {
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(clientKey('192.0.2.7')).toBe('192.0.2.7');
    expect(clientKey('not an address')).toBe('not an address');
  });
});
