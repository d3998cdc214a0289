import { DataSource, EntityManager } from 'typeorm';
import { transaction } from '../src/common/database/transaction';
import { recordEvents } from '../src/common/outbox/outbox';
import { OutboxRelay, OutboxSubscriber, RELAY_SINGLE_AFTER, RelayedEvent } from '../src/common/outbox/outbox-relay';
import { TestApp, createTestApp, createUser } from './helpers/test-app';

/** A subscriber that keeps what it was handed, and writes one audit row per event with the relay's transaction. */
class Recorder implements OutboxSubscriber {
  readonly seen: string[] = [];
  failWith: ((e: RelayedEvent) => boolean) | null = null;
  constructor(readonly name: string) {}
  async handle(em: EntityManager, events: readonly RelayedEvent[]): Promise<void> {
    for (const e of events) {
      await em.query(
        `INSERT INTO audit_log (at, actor, action, resource, resource_id, changes) VALUES (?, 'system', 'relay', ?, ?, '{}')`,
        ['2026-01-01 00:00:00', this.name, e.eventId],
      );
      if (this.failWith?.(e)) throw new Error(`cannot handle ${e.eventId}`);
    }
    this.seen.push(...events.map((e) => e.eventId));
  }
}

/** The outbox relay (issue 42): one reader, a durable cursor per subscriber, each event handed once and in order. */
describe('outbox relay', () => {
  let t: TestApp;
  let ds: DataSource;
  let relay: OutboxRelay;
  let userId: number;
  const record = (n: number) =>
    transaction(ds, (em) =>
      recordEvents(
        em,
        Array.from({ length: n }, (_, i) => ({
          event: 'task.assigned' as const,
          data: { id: i, user: userId, title: `t${i}`, priority: 'Low', due_date: null, link: null },
        })),
      ),
    );
  const ids = async () =>
    (await ds.query<Array<{ event_id: string }>>('SELECT event_id FROM outbox_events ORDER BY seq IS NULL, seq, id')).map(
      (r) => r.event_id,
    );
  const written = async (name: string) =>
    (
      await ds.query<Array<{ resource_id: string }>>(
        `SELECT resource_id FROM audit_log WHERE action = 'relay' AND resource = ? ORDER BY id`,
        [name],
      )
    ).map((r) => r.resource_id);
  const cursor = async (name: string) =>
    (
      await ds.query<Array<{ last_seq: number; failures: number; last_error: string | null }>>(
        'SELECT last_seq, failures, last_error FROM outbox_cursors WHERE subscriber = ?',
        [name],
      )
    )[0];

  beforeAll(async () => {
    t = await createTestApp({ OUTBOX_RELAY_MS: '600000', OUTBOX_RELAY_BATCH: '7' });
    ds = t.app.get(DataSource);
    relay = t.app.get(OutboxRelay);
    userId = (await createUser(t.app, 'Employee')).user.id;
  });
  afterAll(() => t.close());

  it('hands every subscriber each event once, in order, in batches of OUTBOX_RELAY_BATCH; a second run hands nothing', async () => {
    const a = new Recorder('test-a');
    relay.subscribe(a);
    await record(20);
    expect(await relay.relay()).toBe(7);
    await relay.drain();
    expect(a.seen).toEqual(await ids());
    expect(await written('test-a')).toEqual(a.seen);
    expect(await relay.relay()).toBe(0);
  });

  it('an event committed after one with a higher id is sequenced after it: no cursor passes it', async () => {
    const a = new Recorder('test-late');
    relay.subscribe(a);
    await record(2);
    await relay.drain();
    // As if the transaction that took this id committed only now, after its successor was relayed.
    const newest = await ds.query<Array<{ id: number }>>('SELECT id FROM outbox_events ORDER BY id DESC LIMIT 2');
    const id = Math.min(...newest.map((r) => Number(r.id)));
    const late = await ds.query<Array<{ event_id: string; event: string; payload: string; created_at: string }>>(
      'SELECT event_id, event, payload, created_at FROM outbox_events WHERE id = ?',
      [id],
    );
    await ds.query('DELETE FROM outbox_events WHERE id = ?', [id]);
    await ds.query('INSERT INTO outbox_events (id, event_id, event, payload, created_at, seq) VALUES (?, ?, ?, ?, ?, NULL)', [
      id,
      'late-one',
      late[0].event,
      late[0].payload,
      late[0].created_at,
    ]);
    await relay.drain();
    expect(a.seen[a.seen.length - 1]).toBe('late-one');
    expect(a.seen.filter((e) => e === 'late-one')).toHaveLength(1);
    const [row] = await ds.query<Array<{ seq: number }>>("SELECT seq FROM outbox_events WHERE event_id = 'late-one'");
    const [max] = await ds.query<Array<{ n: number }>>('SELECT MAX(seq) AS n FROM outbox_events');
    expect(Number(row.seq)).toBe(Number(max.n));
  });

  it("a failing subscriber's writes roll back with its batch and its cursor stays; the others go on; it gets one event at a time, then recovers", async () => {
    const good = new Recorder('test-good');
    const bad = new Recorder('test-bad');
    relay.subscribe(good);
    relay.subscribe(bad);
    await relay.drain();
    const before = await cursor('test-bad');
    const writtenBefore = (await written('test-bad')).length;
    await record(3);
    const newest = (await ids()).slice(-3);
    bad.failWith = (e) => e.eventId === newest[1];
    for (let i = 0; i < RELAY_SINGLE_AFTER; i++) await relay.relay();
    expect(good.seen.slice(-3)).toEqual(newest);
    const stuck = await cursor('test-bad');
    expect(Number(stuck.last_seq)).toBe(Number(before.last_seq));
    expect(stuck.failures).toBe(RELAY_SINGLE_AFTER);
    expect((await written('test-bad')).length).toBe(writtenBefore); // every write of the failed batches rolled back
    // One at a time now: the first event goes through, the failing one is named.
    await relay.relay();
    await relay.relay();
    expect(bad.seen.slice(-1)).toEqual([newest[0]]);
    expect((await cursor('test-bad')).last_error).toContain(`cannot handle ${newest[1]}`);
    bad.failWith = null;
    await relay.drain();
    expect(bad.seen.slice(-3)).toEqual(newest);
    expect(await written('test-bad')).toEqual(bad.seen);
    expect(await cursor('test-bad')).toMatchObject({ failures: 0, last_error: null });
  });

  it('a subscriber that passes over failing events (skipAfter) does so after that many failures of the event alone, and names it', async () => {
    const picky = Object.assign(new Recorder('test-picky'), { skipAfter: 2 });
    relay.subscribe(picky);
    await relay.drain();
    await record(2);
    const [poison, next] = (await ids()).slice(-2);
    picky.failWith = (e) => e.eventId === poison;
    for (let i = 0; i < RELAY_SINGLE_AFTER + 1; i++) await relay.relay();
    expect(picky.seen).not.toContain(poison);
    expect((await cursor('test-picky')).failures).toBe(RELAY_SINGLE_AFTER + 1);
    await relay.relay(); // the second failure alone: passed over
    expect((await cursor('test-picky')).last_error).toContain(`passed over event ${poison}`);
    await relay.drain();
    expect(picky.seen.slice(-1)).toEqual([next]);
    expect(await written('test-picky')).not.toContain(poison);
  });

  it('the purge keeps every event a subscriber has not handled, however old', async () => {
    const slow = new Recorder('test-slow');
    slow.failWith = () => true;
    await relay.drain();
    relay.subscribe(slow);
    await ds.query(
      "INSERT INTO outbox_cursors (subscriber, last_seq, failures) SELECT 'test-slow', MAX(seq) - 1, 0 FROM outbox_events",
    );
    await ds.query("UPDATE outbox_events SET created_at = '2000-01-01 00:00:00'");
    const all = await ids();
    const purged = await relay.purge(new Date(Date.now() - 7 * 86_400_000));
    expect(purged).toBe(all.length - 1);
    expect(await ids()).toEqual(all.slice(-1));
  });
});
