import { DataSource } from 'typeorm';
import { transaction } from '../../common/database/transaction';

/** Deterministic pseudo-random numbers, so every demo database looks the same. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Plain multi-row INSERTs (booleans as 1/0, instants as UTC "YYYY-MM-DD HH:MM:SS"), 400 rows a statement, one transaction. */
export async function insertRows(ds: DataSource, table: string, columns: string[], rows: unknown[][]): Promise<void> {
  const value = (v: unknown) =>
    typeof v === 'boolean' ? (v ? 1 : 0) : v instanceof Date ? v.toISOString().slice(0, 19).replace('T', ' ') : v;
  await transaction(ds, async (em) => {
    for (let i = 0; i < rows.length; i += 400) {
      const batch = rows.slice(i, i + 400);
      const placeholders = batch.map(() => `(${columns.map(() => '?').join(', ')})`).join(', ');
      await em.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${placeholders}`, batch.flat().map(value));
    }
  });
}
