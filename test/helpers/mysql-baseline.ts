import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../../src/database/data-source';
import { writeWhole } from './write-whole';

/**
 * An integration database back at the state right after the migrations, without running them.
 *
 * Every suite's app starts from a freshly migrated database. Dropping the tables and running the
 * 51 migrations took 4.5 to 6 s per app on MariaDB idle and over 30 s with the other CI steps
 * running (a fuzz suite's beforeAll timed out in CI on it); the integration run makes about 200 apps.
 * Instead, the first reset of a jest run on a worker's database migrates it and keeps what the
 * migrations wrote (a few dozen rows: the migrations' own table, reference data) in a file; the
 * next resets empty every table, set its AUTO_INCREMENT back and write those rows again (0.1 to
 * 0.3 s), provided the schema is still the migrated one: its fingerprint (columns, indexes, foreign
 * keys, triggers and the applied migrations) is compared first, so a suite that undid a migration
 * and left it undone gets a real drop and migrate.
 */

interface Baseline {
  fingerprint: string;
  /** Rows per table, values tagged where JSON would lose their type (dates, buffers). */
  rows: Record<string, Array<Record<string, unknown>>>;
}

function tag(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (value instanceof Date) out[key] = { $date: value.toISOString() };
    else if (Buffer.isBuffer(value)) out[key] = { $buffer: value.toString('base64') };
    else out[key] = value;
  }
  return out;
}
function untag(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (value && typeof value === 'object' && '$date' in value) out[key] = new Date((value as { $date: string }).$date);
    else if (value && typeof value === 'object' && '$buffer' in value)
      out[key] = Buffer.from((value as { $buffer: string }).$buffer, 'base64');
    else out[key] = value;
  }
  return out;
}

async function fingerprint(ds: DataSource): Promise<string> {
  const schema = 'TABLE_SCHEMA = DATABASE()';
  const parts = await Promise.all([
    ds.query(
      `SELECT TABLE_NAME, COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, COLUMN_DEFAULT, EXTRA FROM information_schema.COLUMNS
        WHERE ${schema} ORDER BY TABLE_NAME, ORDINAL_POSITION`,
    ),
    ds.query(
      `SELECT TABLE_NAME, INDEX_NAME, NON_UNIQUE, SEQ_IN_INDEX, COLUMN_NAME, SUB_PART, INDEX_TYPE FROM information_schema.STATISTICS
        WHERE ${schema} ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`,
    ),
    ds.query(
      `SELECT TABLE_NAME, CONSTRAINT_NAME, COLUMN_NAME, REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME FROM information_schema.KEY_COLUMN_USAGE
        WHERE ${schema} AND REFERENCED_TABLE_NAME IS NOT NULL ORDER BY TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION`,
    ),
    ds.query(
      `SELECT TRIGGER_NAME, ACTION_STATEMENT FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() ORDER BY TRIGGER_NAME`,
    ),
  ]);
  const tables = new Set((parts[0] as Array<{ TABLE_NAME: string }>).map((c) => c.TABLE_NAME));
  const applied = tables.has('migrations') ? await ds.query('SELECT name FROM migrations ORDER BY id') : [];
  return createHash('sha256')
    .update(JSON.stringify([...parts, applied]))
    .digest('hex');
}

async function tablesOf(ds: DataSource): Promise<Array<{ name: string; autoIncrement: number | null }>> {
  const rows = await ds.query<Array<{ name: string; ai: number | string | null }>>(
    `SELECT TABLE_NAME AS name, AUTO_INCREMENT AS ai FROM information_schema.TABLES
      WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME`,
  );
  return rows.map((r) => ({ name: r.name, autoIncrement: r.ai === null ? null : Number(r.ai) }));
}

async function capture(ds: DataSource): Promise<Baseline> {
  const rows: Baseline['rows'] = {};
  for (const { name } of await tablesOf(ds)) {
    const found = await ds.query<Array<Record<string, unknown>>>(`SELECT * FROM \`${name}\``);
    if (found.length > 0) rows[name] = found.map(tag);
  }
  return { fingerprint: await fingerprint(ds), rows };
}

async function restore(ds: DataSource, baseline: Baseline): Promise<void> {
  const runner = ds.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SET FOREIGN_KEY_CHECKS = 0');
    for (const { name, autoIncrement } of await tablesOf(ds)) {
      await runner.query(`DELETE FROM \`${name}\``);
      if (autoIncrement !== null && autoIncrement > 1) await runner.query(`ALTER TABLE \`${name}\` AUTO_INCREMENT = 1`);
      const rows = (baseline.rows[name] ?? []).map(untag);
      if (rows.length === 0) continue;
      const columns = Object.keys(rows[0]);
      const tuple = `(${columns.map(() => '?').join(', ')})`;
      await runner.query(
        `INSERT INTO \`${name}\` (${columns.map((c) => `\`${c}\``).join(', ')}) VALUES ${rows.map(() => tuple).join(', ')}`,
        rows.flatMap((row) => columns.map((c) => row[c])),
      );
    }
  } finally {
    await runner.query('SET FOREIGN_KEY_CHECKS = 1').catch(() => undefined);
    await runner.release();
  }
}

/** Creates the databases of these URLs when missing (utf8mb4, as .ci/services.sh makes its own), through a connection to `serverUrl`'s. */
export async function createDatabases(serverUrl: string, urls: readonly string[]): Promise<void> {
  const server = await new DataSource(dataSourceOptions({ type: 'mysql', url: serverUrl })).initialize();
  try {
    for (const url of urls) {
      const name = new URL(url).pathname.slice(1);
      await server.query(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    }
  } finally {
    await server.destroy();
  }
}

/** An integration worker's own database: DATABASE_URL's name with `_w<worker>` appended. */
export function workerDatabaseUrl(base: string, worker: number | string): string {
  return base.replace(/\/([^/?]+)(\?.*)?$/, (_m, name: string, query?: string) => `/${name}_w${worker}${query ?? ''}`);
}

/**
 * Resets the integration database `ds` is connected to (see above). `stamp` names the sources
 * (a baseline made by other migrations is not this one's); kept per jest run: the workers' parent,
 * named by HR_TEST_RUN_OWNER where test/helpers/integration-setup.ts set it.
 */
export async function resetToMigrated(ds: DataSource, stamp: string): Promise<void> {
  const database = (ds.options as { database?: string }).database ?? String((await ds.query('SELECT DATABASE() AS d'))[0].d);
  const dir = join(tmpdir(), `hr-test-mysql-${process.env.HR_TEST_RUN_OWNER ?? process.ppid}`);
  const file = join(dir, `${database}-${createHash('sha1').update(stamp).digest('hex').slice(0, 16)}.json`);
  let baseline: Baseline | undefined;
  try {
    baseline = JSON.parse(readFileSync(file, 'utf8')) as Baseline;
  } catch {
    baseline = undefined;
  }
  if (baseline && (await fingerprint(ds)) === baseline.fingerprint) return restore(ds, baseline);
  await ds.dropDatabase();
  await runMigrations(ds);
  const made = await capture(ds);
  mkdirSync(dir, { recursive: true });
  writeWhole(file, JSON.stringify(made));
}
