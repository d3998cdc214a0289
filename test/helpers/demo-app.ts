import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { DemoSeedResult, seedDemo } from '../../src/database/seeds/demo.seed';
import { createTestApp, sleep, SOURCES_STAMP, TestApp, testConfig, writeWhole } from './test-app';

export interface DemoApp extends TestApp {
  demo: DemoSeedResult;
}

/** How long a suite waits for another worker's seeding before it seeds on its own. */
const WAIT_MS = 180_000;

/**
 * An app on the demo company (seedDemo), for the suites that read it. On the embedded database the
 * demo is seeded once in a jest run, by the first file that asks while the others wait, and each
 * suite starts from a copy of it: the database's bytes, the stored files (documents, payslip PDFs)
 * and the credentials (seeding costs some 8 s of CPU, Chromium's included, and four suites read
 * it). It is seeded in an app of the default configuration, whatever the asking suite's overrides,
 * so every suite gets the same company. On MariaDB (integration) each suite seeds its own.
 */
export async function createDemoApp(overrides: Record<string, string> = {}): Promise<DemoApp> {
  const { database } = testConfig(overrides);
  if (database.type !== 'sqlite' || database.path !== ':memory:' || overrides.DATABASE_URL !== undefined) {
    const own = await createTestApp(overrides);
    return Object.assign(own, { demo: await seedDemo(own.app) });
  }
  const copy = await seeded();
  const t = await createTestApp(overrides, { database: copy.database });
  cpSync(copy.files, (t.config.fileStorage as { dir: string }).dir, { recursive: true });
  return Object.assign(t, { demo: copy.demo });
}

interface Copy {
  database: Buffer;
  files: string;
  demo: DemoSeedResult;
}

async function seeded(): Promise<Copy> {
  // The demo's dates follow the day it was seeded on: a run across midnight seeds again.
  const key = createHash('sha1')
    .update(`${SOURCES_STAMP}|${new Date().toISOString().slice(0, 10)}`)
    .digest('hex')
    .slice(0, 16);
  const dir = join(tmpdir(), `hr-test-sqlite-${process.ppid}`);
  mkdirSync(dir, { recursive: true });
  const base = join(dir, `demo-${key}`);
  const read = (): Copy | null => {
    try {
      return {
        demo: JSON.parse(readFileSync(`${base}.json`, 'utf8')) as DemoSeedResult,
        database: readFileSync(`${base}.db`),
        files: `${base}-files`,
      };
    } catch {
      return null;
    }
  };
  let mine = false;
  try {
    mkdirSync(`${base}.lock`);
    mine = true;
  } catch {
    for (const start = Date.now(); Date.now() - start < WAIT_MS; await sleep(100)) {
      const copy = read();
      if (copy) return copy;
    }
  }
  const t = await createTestApp();
  try {
    const demo = await seedDemo(t.app);
    const driver = t.app.get(DataSource).driver as unknown as { databaseConnection: { serialize(): Buffer } };
    const database = driver.databaseConnection.serialize();
    const files = `${base}-files${mine ? '' : `-${process.pid}`}`;
    cpSync((t.config.fileStorage as { dir: string }).dir, files, { recursive: true });
    if (mine) {
      // The credentials last: they say the copy is whole.
      writeWhole(`${base}.db`, database);
      writeWhole(`${base}.json`, JSON.stringify(demo));
    }
    return { database, files, demo };
  } finally {
    await t.close();
  }
}
