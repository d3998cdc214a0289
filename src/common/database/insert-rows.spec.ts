import { Column, CreateDateColumn, DataSource, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { insertRows } from './insert-rows';

@Entity('things')
class Thing {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ type: 'varchar', length: 20 }) name: string;
  @Column({ type: 'varchar', length: 20, default: 'plain' }) kind: string;
  @Column({ type: 'varchar', length: 20, nullable: true }) note: string | null;
  @Column({ name: 'seen_at', type: 'datetime', precision: 3, nullable: true }) seenAt: Date | null;
  @Column({ type: 'boolean', default: false }) flag: boolean;
  @CreateDateColumn({ name: 'created_at', type: 'datetime' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'datetime' }) updatedAt: Date;
}

describe('insertRows', () => {
  let ds: DataSource;
  beforeAll(async () => {
    ds = await new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [Thing],
      synchronize: true,
    }).initialize();
  });
  afterAll(() => ds.destroy());

  it('writes rows in chunks as the insert builder would: ids generated, values converted, defaults and instants filled', async () => {
    const seen = new Date('2026-11-27T10:00:00.123Z');
    const rows = Array.from({ length: 7 }, (_, i) => ({
      name: `t${i}`,
      flag: i % 2 === 0,
      ...(i === 3 ? { note: 'n', seenAt: seen } : {}),
    }));
    const before = Date.now();
    await insertRows(ds.manager, Thing, rows, 3);
    const stored = await ds.getRepository(Thing).find({ order: { id: 'ASC' } });
    expect(stored.map((t) => [t.id, t.name, t.kind, t.note, t.flag])).toEqual(
      rows.map((r, i) => [i + 1, r.name, 'plain', i === 3 ? 'n' : null, i % 2 === 0]),
    );
    expect(stored[3].seenAt?.toISOString()).toBe(seen.toISOString());
    // Creation and update instants are now (to the second, as the column keeps them), never NULL.
    for (const t of stored) {
      expect(t.createdAt.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
      expect(t.updatedAt.getTime()).toBe(t.createdAt.getTime());
    }
    await expect(insertRows(ds.manager, Thing, [])).resolves.toBeUndefined();
  });

  it('a column some rows leave undefined takes its literal default there, as the builder writes it (employees.status in an import)', async () => {
    await ds.getRepository(Thing).clear();
    await insertRows(ds.manager, Thing, [
      { name: 'given', kind: 'special', flag: true },
      { name: 'left', note: 'n' },
    ]);
    const stored = await ds.getRepository(Thing).find({ order: { id: 'ASC' } });
    expect(stored.map((t) => [t.name, t.kind, t.flag, t.note])).toEqual([
      ['given', 'special', true, null],
      ['left', 'plain', false, 'n'],
    ]);
  });
});
