import { DataSource } from 'typeorm';
import { isUniqueViolation } from '../src/common/errors/db-errors';
import { dataSourceOptions, runMigrations } from '../src/database/data-source';
import { MIGRATIONS } from '../src/database/migrations';
import { resetDatabase, testConfig } from './helpers/test-app';
import { undoMigrationsFrom } from './helpers/migrations';

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

  it('InsightRollups on existing data: sums attendance and time entries per day and department, marks leave days', async () => {
    await undoMigrationsFrom(ds, 'InsightRollups1763800000014'); // back to 1763800000013
    await ds.query("INSERT INTO departments (name) VALUES ('D1')");
    const [{ id: dep }] = await ds.query("SELECT id FROM departments WHERE name = 'D1'");
    await ds.query(
      `INSERT INTO employees (employee_id, first_name, last_name, joined_date, department_id) VALUES ('M1', 'A', 'B', '2020-01-01', ?), ('M2', 'C', 'D', '2020-01-01', NULL)`,
      [dep],
    );
    const ids = (await ds.query("SELECT id FROM employees WHERE employee_id IN ('M1', 'M2') ORDER BY employee_id")).map(
      (r: { id: unknown }) => Number(r.id),
    );
    await ds.query(`INSERT INTO attendance (employee_id, in_time, out_time, duration_seconds, work_from_home) VALUES
      (${ids[0]}, '2026-03-02 09:00:00', '2026-03-02 17:00:00', 28800, 1), (${ids[0]}, '2026-03-02 18:00:00', NULL, NULL, 0),
      (${ids[1]}, '2026-03-02 09:00:00', '2026-03-02 10:00:00', 3600, 0)`);
    await ds.query(`INSERT INTO time_entries (employee_id, date, start_time, end_time, minutes, status) VALUES
      (${ids[0]}, '2026-03-03', '09:00', '10:00', 60, 'Approved'), (${ids[0]}, '2026-03-03', '10:00', '12:00', 120, 'Rejected')`);
    await ds.query("INSERT INTO leave_types (name, default_days) VALUES ('T1', 20)");
    const [{ id: type }] = await ds.query("SELECT id FROM leave_types WHERE name = 'T1'");
    await ds.query(
      `INSERT INTO leave_requests (employee_id, leave_type_id, date_start, date_end, days, status) VALUES (?, ?, '2026-01-05', '2026-02-06', 25, 'Approved')`,
      [ids[0], type],
    );
    const [{ id: request }] = await ds.query('SELECT id FROM leave_requests');
    // Some of the working days from Monday 5 January to Friday 6 February: the 5th and 6th come twice, Mondays three times.
    const dates = ['2026-01-05', '2026-01-06', '2026-01-07', '2026-01-12', '2026-01-19', '2026-02-05', '2026-02-06'];
    for (const date of dates) {
      await ds.query(
        `INSERT INTO leave_days (request_id, date, employee_id, leave_type_id, status, days) VALUES (?, ?, ?, ?, 'Approved', 1)`,
        [request, date, ids[0], type],
      );
    }

    await runMigrations(ds);
    const numbers = (rows: Array<Record<string, unknown>>) =>
      rows.map((r) =>
        Object.fromEntries(
          Object.entries(r).map(([k, v]) => [k, /^(date|first_date|day)$/.test(k) ? String(v).slice(0, 10) : Number(v)]),
        ),
      );
    expect(numbers(await ds.query('SELECT * FROM attendance_days ORDER BY department_id'))).toEqual([
      { day: '2026-03-02', department_id: 0, records: 1, seconds: 3600, completed: 1, wfh: 0 },
      { day: '2026-03-02', department_id: Number(dep), records: 2, seconds: 28800, completed: 1, wfh: 1 },
    ]);
    expect(numbers(await ds.query('SELECT * FROM time_entry_days'))).toEqual([
      { day: '2026-03-03', department_id: Number(dep), entries: 1, minutes: 60 },
    ]);
    expect(
      numbers(await ds.query('SELECT date, first_date, first_of_dom, first_of_weekday FROM leave_days ORDER BY date')),
    ).toEqual([
      { date: '2026-01-05', first_date: '2026-01-05', first_of_dom: 1, first_of_weekday: 1 },
      { date: '2026-01-06', first_date: '2026-01-05', first_of_dom: 1, first_of_weekday: 1 },
      { date: '2026-01-07', first_date: '2026-01-05', first_of_dom: 1, first_of_weekday: 1 },
      { date: '2026-01-12', first_date: '2026-01-05', first_of_dom: 1, first_of_weekday: 0 },
      { date: '2026-01-19', first_date: '2026-01-05', first_of_dom: 1, first_of_weekday: 0 },
      { date: '2026-02-05', first_date: '2026-01-05', first_of_dom: 0, first_of_weekday: 1 },
      { date: '2026-02-06', first_date: '2026-01-05', first_of_dom: 0, first_of_weekday: 1 },
    ]);
    await ds.query('DELETE FROM leave_requests');
    await ds.query('DELETE FROM attendance');
    await ds.query('DELETE FROM time_entries');
    await ds.query('DELETE FROM employees');
  });

  it('AccrualChanges on existing marks: reads everyone once, keeps the ledger holes, the subscriber starts at the sequence', async () => {
    await undoMigrationsFrom(ds, 'AccrualChanges1763800000047');
    const t = Date.now();
    await ds.query(
      `INSERT INTO leave_accrual_runs (day, full_run, ledger_mark, audit_mark, holes, employees, written, finished_at) VALUES
      ('2026-03-01', 1, 40, 500, ?, 3, 0, '2026-03-01 02:00:00'), ('2026-03-02', 0, 41, 501, NULL, 0, 0, '2026-03-02 02:00:00')`,
      [JSON.stringify({ ledger: [[3, 3, t]], audit: [[7, 7, t]] })],
    );
    await ds.query(
      `INSERT INTO leave_liability_days (day, ledger_mark, audit_mark, holes, used_ms) VALUES ('2026-03-01', -1, -1, NULL, 0), ('2026-03-02', 41, 501, ?, 0)`,
      [JSON.stringify({ ledger: [], audit: [[7, 7, t]] })],
    );
    await ds.query("UPDATE outbox_cursors SET last_seq = 77 WHERE subscriber = '$sequence'");
    await runMigrations(ds);
    const rows = (sql: string) =>
      ds
        .query(sql)
        .then((r: Array<Record<string, unknown>>) =>
          r.map((x) => Object.values(x).map((v) => (v === null ? v : String(v as string | number)))),
        );
    expect(await rows('SELECT ledger_mark, change_mark, holes FROM leave_accrual_runs ORDER BY id')).toEqual([
      ['40', '0', JSON.stringify({ ledger: [[3, 3, t]], changes: [] })],
      ['41', '0', null],
    ]);
    expect(await rows('SELECT ledger_mark, change_mark, holes FROM leave_liability_days ORDER BY day')).toEqual([
      ['-1', '-1', null],
      ['41', '0', null],
    ]);
    expect(await rows('SELECT employee_id FROM leave_accrual_changes')).toEqual([[null]]);
    expect(await rows("SELECT last_seq FROM outbox_cursors WHERE subscriber = 'leave-accrual'")).toEqual([['77']]);
    await ds.query('DELETE FROM leave_accrual_runs');
    await ds.query('DELETE FROM leave_liability_days');
    await ds.query('DELETE FROM leave_accrual_changes');
  });

  it('CustomFieldValuesByEmployee on existing values: every row kept, keyed by employee, the unique and cascades still hold', async () => {
    await undoMigrationsFrom(ds, 'CustomFieldValuesByEmployee1763800000053');
    await ds.query(
      "INSERT INTO employees (employee_id, first_name, last_name, joined_date) VALUES ('CF1', 'A', 'B', '2024-01-01')",
    );
    await ds.query(
      "INSERT INTO employees (employee_id, first_name, last_name, joined_date) VALUES ('CF2', 'C', 'D', '2024-01-01')",
    );
    const [{ id: e1 }, { id: e2 }] = await ds.query("SELECT id FROM employees WHERE employee_id IN ('CF1', 'CF2') ORDER BY id");
    await ds.query(
      "INSERT INTO custom_fields (field_key, label, type, position, visible_to) VALUES ('size', 'Size', 'select', 1, 'Admin')",
    );
    await ds.query(
      "INSERT INTO custom_fields (field_key, label, type, position, is_unique, visible_to) VALUES ('badge', 'Badge', 'text', 2, 1, 'Admin')",
    );
    const [{ id: f1 }, { id: f2 }] = await ds.query(
      "SELECT id FROM custom_fields WHERE field_key IN ('size', 'badge') ORDER BY id",
    );
    const values = [
      [f1, e2, '', 'M', 'M', null, null],
      [f2, e1, '', 'B-1', 'B-1', null, 'u1'],
      [f1, e1, '', 'L', 'L', null, null],
      [f2, e2, '', 'B-2', 'B-2', null, 'u2'],
    ];
    for (const v of values)
      await ds.query(
        'INSERT INTO custom_field_values (field_id, employee_id, item, value_text, value_key, value_number, unique_key) VALUES (?, ?, ?, ?, ?, ?, ?)',
        v,
      );
    await runMigrations(ds);
    const rows = async () =>
      (await ds.query('SELECT employee_id, field_id, value_text FROM custom_field_values ORDER BY employee_id, field_id')).map(
        (r: Record<string, unknown>) => [Number(r.employee_id), Number(r.field_id), r.value_text],
      );
    expect(await rows()).toEqual([
      [e1, f1, 'L'],
      [e1, f2, 'B-1'],
      [e2, f1, 'M'],
      [e2, f2, 'B-2'],
    ]);
    const runner = ds.createQueryRunner();
    const table = await runner.getTable('custom_field_values');
    await runner.release();
    expect(table!.primaryColumns.map((c) => c.name).sort()).toEqual(['employee_id', 'field_id', 'item']);
    expect(table!.indices.map((i) => i.name).sort()).toEqual(['idx_cfv_key', 'idx_cfv_number', 'uq_cfv_unique']);
    const key =
      ds.options.type === 'mysql'
        ? "SHOW INDEX FROM custom_field_values WHERE Key_name = 'PRIMARY'"
        : "PRAGMA index_info('custom_field_values')";
    if (ds.options.type === 'mysql')
      expect((await ds.query(key)).map((r: { Column_name: string }) => r.Column_name)).toEqual([
        'employee_id',
        'field_id',
        'item',
      ]);
    else
      expect(await ds.query("SELECT sql FROM sqlite_master WHERE name = 'custom_field_values'")).toEqual([
        { sql: expect.stringMatching(/PRIMARY KEY \(employee_id, field_id, item\).*\) WITHOUT ROWID$/s) },
      ]);
    // On SQLite the unique index holds the unique fields' values only.
    if (ds.options.type !== 'mysql')
      expect(await ds.query("SELECT sql FROM sqlite_master WHERE name = 'uq_cfv_unique'")).toEqual([
        { sql: expect.stringMatching(/WHERE unique_key IS NOT NULL$/) },
      ]);
    const duplicate = await ds
      .query(
        "INSERT INTO custom_field_values (field_id, employee_id, item, value_text, value_key, unique_key) VALUES (?, ?, '', 'B-1', 'B-1', 'u1')",
        [f2, e2],
      )
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(isUniqueViolation(duplicate)).toBe(true);
    await ds.query('DELETE FROM employees WHERE id = ?', [e1]);
    await ds.query('DELETE FROM custom_fields WHERE id = ?', [f2]);
    expect(await rows()).toEqual([[e2, f1, 'M']]);
    await ds.query('DELETE FROM employees');
    await ds.query('DELETE FROM custom_fields');
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
