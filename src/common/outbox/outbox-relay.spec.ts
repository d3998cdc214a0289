import 'reflect-metadata';
import { DataSource, EntityManager } from 'typeorm';
import type { AppConfig } from '../../config/config';
import { transaction } from '../database/transaction';
import type { JobQueue } from '../queue/job-queue.service';
import { OutboxRelay, OutboxSubscriber, RELAY_SINGLE_AFTER, RelayedEvent } from './outbox-relay';
import { OutboxCursor, OutboxEvent } from './outbox.entities';
import { OutboxRepository } from './outbox.repository';
import { OutboxEventName, recordEvents } from './outbox';

/*
 * The relay on its own (issue 64 item 7): an in-memory database holding only the outbox's two
 * tables, and subscribers that record what they were handed. Its promise: every subscriber gets
 * every committed event once, in commit order; what a subscriber writes commits with its cursor; a
 * failing subscriber holds back only its own cursor, then gets one event at a time, so its error
 * names the event.
 */

const BATCH = 3;
const config = { outbox: { relayMs: 250, batch: BATCH } } as AppConfig;
const jobs = { register: () => undefined, schedule: () => Promise.resolve() } as unknown as JobQueue;

/** Records the ids of the events it handled; refuses those `refuses` names (its batch then rolls back). */
class Recorder implements OutboxSubscriber {
  readonly handled: number[] = [];
  constructor(
    readonly name: string,
    private readonly refuses: (id: number) => boolean = () => false,
    readonly skipAfter?: number,
  ) {}

  async handle(em: EntityManager, events: readonly RelayedEvent[]): Promise<void> {
    const ids = events.map((e) => (e.data as { id: number }).id);
    // A write of its own, in the batch's transaction: it commits exactly when the cursor moves.
    for (const id of ids) await em.query('INSERT INTO handled (subscriber, event) VALUES (?, ?)', [this.name, id]);
    const refused = ids.find((id) => this.refuses(id));
    if (refused !== undefined) throw new Error(`refused ${refused}`);
    this.handled.push(...ids);
  }
}

describe('OutboxRelay', () => {
  let ds: DataSource;
  let relay: OutboxRelay;

  beforeEach(async () => {
    ds = new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [OutboxEvent, OutboxCursor],
      synchronize: true,
    });
    await ds.initialize();
    await ds.query('CREATE TABLE handled (subscriber varchar(50), event integer)');
    // The sequencer's cursor, as the outbox's migration makes it.
    await ds.query("INSERT INTO outbox_cursors (subscriber, last_seq, failures) VALUES ('$sequence', 0, 0)");
    relay = new OutboxRelay(config, ds, new OutboxRepository(ds), jobs);
  });
  afterEach(() => ds.destroy());

  /** Events with ids `from`..`to`, recorded in one transaction (rolled back when `rollback`). */
  const record = (from: number, to: number, rollback = false) =>
    transaction(ds, async (em) => {
      const ids = Array.from({ length: to - from + 1 }, (_, i) => from + i);
      await recordEvents(
        em,
        ids.map((id) => ({ event: 'fixture.event' as OutboxEventName, data: { id, employee: null, changes: {} } as never })),
      );
      if (rollback) throw new Error('rolled back');
    }).catch((err: Error) => {
      if (err.message !== 'rolled back') throw err;
    });
  const written = async (subscriber: string) =>
    (await ds.query<Array<{ event: number }>>('SELECT event FROM handled WHERE subscriber = ? ORDER BY rowid', [subscriber])).map(
      (r) => Number(r.event),
    );
  const cursor = async (subscriber: string) =>
    (
      await ds.query<Array<{ last_seq: number; failures: number; last_error: string | null }>>(
        'SELECT last_seq, failures, last_error FROM outbox_cursors WHERE subscriber = ?',
        [subscriber],
      )
    )[0];
  /**
   * Relays `runs` times: a run that hands nothing does not mean all is handled (a failing subscriber
   * back in batches after a single event handled hands nothing for RELAY_SINGLE_AFTER runs).
   */
  const relayed = async (runs = 30) => {
    for (let i = 0; i < runs; i++) await relay.relay();
  };

  it('hands every subscriber every committed event once, in commit order, a batch at a time', async () => {
    const [a, b] = [new Recorder('a'), new Recorder('b')];
    relay.subscribe(a);
    relay.subscribe(b);
    await record(1, 4);
    await record(5, 6, true); // never committed: never handed
    await record(7, 8);
    expect(await relay.relay()).toBe(BATCH);
    expect(a.handled).toEqual([1, 2, 3]);
    await relayed();
    expect(a.handled).toEqual([1, 2, 3, 4, 7, 8]);
    expect(b.handled).toEqual([1, 2, 3, 4, 7, 8]);
    expect(await written('a')).toEqual([1, 2, 3, 4, 7, 8]);
    expect(await relay.relay()).toBe(0);
    expect(() => relay.subscribe(new Recorder('a'))).toThrow('outbox subscriber a registered twice');
  });

  it('a failing subscriber holds back only its own cursor, its batch rolled back, then gets one event at a time', async () => {
    const [ok, failing] = [new Recorder('ok'), new Recorder('failing', (id) => id === 3)];
    relay.subscribe(ok);
    relay.subscribe(failing);
    await record(1, 7);
    await relayed();
    expect(ok.handled).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // Events 1 and 2 once each (the failed batches' writes were rolled back), and nothing past 3.
    expect(failing.handled).toEqual([1, 2]);
    expect(await written('failing')).toEqual([1, 2]);
    const held = await cursor('failing');
    expect(held.failures).toBeGreaterThanOrEqual(RELAY_SINGLE_AFTER);
    expect(held.last_error).toMatch(/^event [0-9a-f-]{36} \(fixture\.event, seq 3\): refused 3$/);
  });

  it('a subscriber with skipAfter passes over the event it keeps failing on, naming it, and goes on', async () => {
    const skipping = new Recorder('skipping', (id) => id === 2, 2);
    relay.subscribe(skipping);
    await record(1, 2);
    await relayed();
    const moved = await cursor('skipping');
    expect(moved).toMatchObject({ last_seq: 2, failures: 0 });
    expect(moved.last_error).toMatch(/^passed over event .* \(fixture\.event, seq 2\): refused 2$/);
    await record(3, 5);
    await relayed();
    expect(skipping.handled).toEqual([1, 3, 4, 5]);
    expect(await written('skipping')).toEqual([1, 3, 4, 5]);
  });

  it('purges only the events every subscriber has handled', async () => {
    const [a, b] = [new Recorder('a'), new Recorder('b', (id) => id === 2)];
    relay.subscribe(a);
    relay.subscribe(b);
    await record(1, 4);
    await relayed();
    expect(await relay.purge(new Date(Date.now() + 60_000))).toBe(1); // b holds 2..4
    expect((await ds.query<unknown[]>('SELECT id FROM outbox_events')).length).toBe(3);
  });
});
