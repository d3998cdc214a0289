import { DataSource } from 'typeorm';
import { isUniqueViolation } from '../src/common/errors/db-errors';
import { dataSourceOptions, runMigrations } from '../src/database/data-source';
import { MIGRATIONS } from '../src/database/migrations';
import { resetDatabase, testConfig } from './helpers/test-app';

describe(`migrations (${testConfig().database.type})`, () => {
  const config = testConfig();
  let ds: DataSource;

  beforeAll(async () => {
    await resetDatabase(config);
    ds = await new DataSource(dataSourceOptions(config.database)).initialize();
  });
  afterAll(() => ds.destroy());

  const tables = async () => {
    const runner = ds.createQueryRunner();
    try {
      return (await runner.getTables(['settings', 'users', 'user_departments', 'oauth_tokens'])).map((t) =>
        t.name.split('.').pop(),
      );
    } finally {
      await runner.release();
    }
  };

  it('apply on an empty database, creating the tables with their named indexes', async () => {
    const applied = await runMigrations(ds);
    expect(applied).toEqual(MIGRATIONS.map((m) => new m().name));
    expect((await tables()).sort()).toEqual(['oauth_tokens', 'settings', 'user_departments', 'users']);
    const runner = ds.createQueryRunner();
    const users = await runner.getTable('users');
    const tokens = await runner.getTable('oauth_tokens');
    await runner.release();
    expect(users!.indices.map((i) => i.name)).toEqual(
      expect.arrayContaining(['uq_users_username', 'uq_users_email', 'uq_users_employee']),
    );
    expect(tokens!.indices.map((i) => i.name)).toEqual(
      expect.arrayContaining(['uq_oauth_tokens_hash', 'ix_oauth_tokens_expires']),
    );
    expect(tokens!.foreignKeys.map((f) => f.onDelete)).toEqual(['CASCADE']);
  });

  it('are idempotent: a second run applies nothing', async () => {
    await expect(runMigrations(ds)).resolves.toEqual([]);
  });

  it('revert cleanly and apply again', async () => {
    for (let i = 0; i < MIGRATIONS.length; i++) await ds.undoLastMigration();
    expect(await tables()).toEqual([]);
    expect((await runMigrations(ds)).length).toBe(MIGRATIONS.length);
  });

  it('enforce the unique username and cascade tokens with their user', async () => {
    await ds.query("INSERT INTO users (username, email, password_hash, user_level) VALUES ('a', 'a@x.test', 'h', 'Admin')");
    const duplicate = await ds
      .query("INSERT INTO users (username, email, password_hash, user_level) VALUES ('a', 'b@x.test', 'h', 'Admin')")
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(isUniqueViolation(duplicate)).toBe(true);
    expect(isUniqueViolation(new Error('other'))).toBe(false);
    const [{ id }] = await ds.query("SELECT id FROM users WHERE username = 'a'");
    await ds.query(
      `INSERT INTO oauth_tokens (user_id, kind, token_hash, grant_id, expires_at) VALUES (${Number(id)}, 'access', 'h1', 'g', '2030-01-01 00:00:00')`,
    );
    await ds.query(`DELETE FROM users WHERE id = ${Number(id)}`);
    expect(await ds.query('SELECT * FROM oauth_tokens')).toEqual([]);
  });
});
