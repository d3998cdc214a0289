/**
 * Privacy at volume (issue 69), run by hand: `npm run bench:privacy` (SQLite file in a temp dir,
 * the in-process job runner), or with DATABASE_URL=mysql://... (that database is emptied first!).
 * This process is the API and the worker.
 * 1. A subject-access export of one employee with 10 years of daily attendance (3 650 records),
 *    300 documents (30 MiB of random bytes in the file store) and 120 payslips (120 PDFs of 50 KiB):
 *    seconds from the POST to Ready, the process's RSS growth over its level before (sampled every
 *    20 ms), and the longest stall of the event loop.
 * 2. Retention: 10 000 leavers terminated in 2015, each with contact and identity fields, a bank
 *    account, 10 attendance records with notes and 3 audit entries naming personal fields; a policy
 *    for each of the ten categories (`anonymise`); the daily job's time and the event loop's
 *    longest stall, then the preview (nothing left).
 * Targets: the export ≤ 20 s with RSS ≤ +64 MiB; 10 000 leavers ≤ 60 s on MariaDB, the loop never
 * held over 100 ms.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { FILE_STORE, FileStore, StoredObject } from '../src/common/storage/file-store';
import { bulkEmployees } from '../src/database/seeds/bulk-employees';
import { RetentionService } from '../src/privacy/retention.service';
import { ReferenceService } from '../src/reference/reference.service';
import { adminCaller, bulkInsert, isoDay, numberArg, sqlTime, withBenchApp } from './bench-tools';

const DOCUMENTS = numberArg('documents', 300);
const PAYSLIPS = numberArg('payslips', 120);
const YEARS = numberArg('years', 10);
const LEAVERS = numberArg('leavers', 10_000);
const DAY = 86_400_000;
const MiB = 1024 * 1024;

/** The longest the event loop went without running a 5 ms timer, in ms, while it is on. */
function stallMeter(): { stop(): number } {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 5);
    last = now;
  }, 5);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(0, longest, performance.now() - last - 5);
    },
  };
}

const stored = async (store: FileStore, bytes: number) =>
  store.put(Readable.from([randomBytes(bytes)]), { maxBytes: bytes, contentType: 'application/pdf' });

async function main(): Promise<void> {
  await withBenchApp('privacy', { REDIS_URL: undefined }, async (app, config) => {
    const ds = app.get(DataSource);
    const store = app.get<FileStore>(FILE_STORE);
    const admin = await adminCaller(app);
    const call = async <T = unknown>(method: 'GET' | 'POST', url: string, payload?: object, status = 200): Promise<T> => {
      const res = await admin(method, url, payload);
      if (res.statusCode !== status) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      return res.json<{ data: T }>().data;
    };
    const concat = (a: string, b: string) => (config.database.type === 'sqlite' ? `${a} || ${b}` : `CONCAT(${a}, ${b})`);
    const department = await app.get(ReferenceService).addDepartment('Company', null);
    console.log(`database ${config.database.type}, file store ${store.kind}`);

    // 1. One employee's whole working life.
    const t0 = Date.now();
    const employee = await bulkEmployees(ds, 1, [department], 'X');
    const today = Date.UTC(2026, 0, 1);
    await bulkInsert(ds, 'attendance', ['employee_id', 'in_time', 'out_time', 'duration_seconds', 'note'], YEARS * 365, (i) => {
      const day = today - (i + 1) * DAY;
      return [employee, sqlTime(day + 8 * 3600_000), sqlTime(day + 16 * 3600_000), 8 * 3600, i % 10 ? null : 'left early'];
    });
    const [{ type }] = await ds.query<Array<{ type: number }>>("SELECT id AS type FROM document_types WHERE code = 'payslip'");
    await ds.query(
      "INSERT INTO document_types (name, expires, notify_days_before, visible_to_employee, visible_to_manager, employee_may_upload) VALUES ('Scan', 0, '[]', 1, 0, 1)",
    );
    const [{ scan }] = await ds.query<Array<{ scan: number }>>("SELECT id AS scan FROM document_types WHERE name = 'Scan'");
    const files: StoredObject[] = [];
    for (let i = 0; i < DOCUMENTS + PAYSLIPS; i++) files.push(await stored(store, i < DOCUMENTS ? 100 * 1024 : 50 * 1024));
    const now = sqlTime(Date.now());
    await bulkInsert(
      ds,
      'documents',
      [
        'employee_id',
        'document_type_id',
        'name',
        'file_key',
        'file_name',
        'content_type',
        'size',
        'sha256',
        'status',
        'version',
        'created_at',
        'updated_at',
      ],
      files.length,
      (i) => [
        employee,
        i < DOCUMENTS ? scan : type,
        `Doc ${i}`,
        files[i].key,
        `doc-${i}.pdf`,
        'application/pdf',
        files[i].size,
        files[i].sha256,
        'Valid',
        1,
        now,
        now,
      ],
    );
    const docs = await ds.query<Array<{ id: number; file_key: string }>>(
      'SELECT id, file_key FROM documents WHERE employee_id = ? ORDER BY id',
      [employee],
    );
    const byKey = new Map(files.map((f) => [f.key, f]));
    await bulkInsert(
      ds,
      'document_versions',
      ['document_id', 'version', 'file_key', 'file_name', 'content_type', 'size', 'sha256', 'created_at'],
      docs.length,
      (i) => [
        docs[i].id,
        1,
        docs[i].file_key,
        `doc-${i}.pdf`,
        'application/pdf',
        byKey.get(docs[i].file_key)!.size,
        byKey.get(docs[i].file_key)!.sha256,
        now,
      ],
    );
    const [{ frequency }] = await ds.query<Array<{ frequency: number }>>('SELECT MIN(id) AS frequency FROM pay_frequencies');
    await bulkInsert(
      ds,
      'payrolls',
      ['name', 'pay_period', 'department_id', 'date_start', 'date_end', 'columns', 'status', 'progress', 'created_at'],
      PAYSLIPS,
      (i) => [
        `Payroll ${i}`,
        frequency,
        department,
        isoDay(today - (i + 1) * 30 * DAY),
        isoDay(today - i * 30 * DAY - DAY),
        '[]',
        'Completed',
        100,
        now,
      ],
    );
    const payrolls = await ds.query<Array<{ id: number }>>('SELECT id FROM payrolls ORDER BY id');
    await bulkInsert(ds, 'payslips', ['payroll_id', 'employee_id', 'html', 'document_id', 'created_at'], PAYSLIPS, (i) => [
      payrolls[i].id,
      employee,
      '<p>payslip</p>',
      docs[DOCUMENTS + i].id,
      now,
    ]);
    console.log(
      `export data: ${YEARS * 365} attendance records, ${DOCUMENTS} documents (${((DOCUMENTS * 100) / 1024).toFixed(1)} MiB), ` +
        `${PAYSLIPS} payslips in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );

    global.gc?.();
    const base = process.memoryUsage().rss;
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const loop = stallMeter();
    const started = Date.now();
    const made = await call<{ id: number }>('POST', `/employees/${employee}/personal-data-exports`, {}, 202);
    let view: { status: string; size: number | null } = { status: 'Queued', size: null };
    while (view.status === 'Queued' || view.status === 'Running') {
      await new Promise((r) => setTimeout(r, 50));
      view = await call('GET', `/personal-data-exports/${made.id}`);
    }
    const took = (Date.now() - started) / 1000;
    clearInterval(sampler);
    const stalled = loop.stop();
    console.log(
      `export: ${view.status}, ${((view.size ?? 0) / MiB).toFixed(1)} MiB ZIP in ${took.toFixed(1)} s; ` +
        `RSS +${((peak - base) / MiB).toFixed(0)} MiB over ${(base / MiB).toFixed(0)} MiB; ` +
        `event loop held ${stalled.toFixed(0)} ms at most (target ≤ 20 s, ≤ +64 MiB)`,
    );

    // 2. Ten thousand leavers due under every category.
    const t1 = Date.now();
    const first = await bulkEmployees(ds, LEAVERS, [department], 'L');
    await ds.query(
      `UPDATE employees SET status = 'Terminated', termination_date = '2015-06-30', mobile_phone = '+49 170 555', ` +
        `private_email = ${concat("'p@'", 'id')}, ssn_num = ${concat("'SSN'", 'id')}, birthday = '1980-01-01', address1 = 'Street 1' WHERE id >= ?`,
      [first],
    );
    await bulkInsert(
      ds,
      'employee_bank_accounts',
      ['employee_id', 'iban', 'holder_name', 'is_primary', 'created_at', 'updated_at'],
      LEAVERS,
      (i) => [first + i, 'DE89370400440532013000', `Holder ${i}`, 1, now, now],
    );
    await bulkInsert(ds, 'attendance', ['employee_id', 'in_time', 'out_time', 'duration_seconds', 'note'], LEAVERS * 10, (i) => {
      const day = Date.UTC(2014, 0, 1) + (i % 10) * DAY;
      return [first + Math.floor(i / 10), sqlTime(day + 8 * 3600_000), sqlTime(day + 16 * 3600_000), 8 * 3600, 'a note'];
    });
    await bulkInsert(
      ds,
      'audit_log',
      ['at', 'actor', 'action', 'resource', 'resource_id', 'employee_id', 'changes'],
      LEAVERS * 3,
      (i) => {
        const id = first + Math.floor(i / 3);
        return [
          now,
          'user:1',
          'update',
          'employees',
          String(id),
          id,
          JSON.stringify({ mobile_phone: ['+49 170 555', '+49 170 556'], department: [1, 2] }),
        ];
      },
    );
    for (const category of [
      'contact',
      'identity',
      'bank_accounts',
      'documents',
      'attendance',
      'timesheets',
      'leave',
      'notifications',
      'audit',
      'custom_fields',
    ])
      await call('POST', '/retention-policies', { category, keep_years: 10, action: 'anonymise' });
    console.log(
      `retention data: ${LEAVERS} leavers with a bank account, 10 attendance records and 3 audit entries each in ${((Date.now() - t1) / 1000).toFixed(1)} s`,
    );

    const retention = app.get(RetentionService);
    const t2 = Date.now();
    const preview = await retention.preview({ page: 1, limit: 1, sortOrder: 'ascend' });
    console.log(`preview: ${preview.total} (leaver, category) entries in ${((Date.now() - t2) / 1000).toFixed(1)} s`);
    const jobLoop = stallMeter();
    const t3 = Date.now();
    const done = await retention.apply();
    const jobTook = (Date.now() - t3) / 1000;
    const jobStalled = jobLoop.stop();
    console.log(
      `retention job: ${done.records} records of ${done.employees} leavers in ${jobTook.toFixed(1)} s; ` +
        `event loop held ${jobStalled.toFixed(0)} ms at most (target ≤ 60 s on MariaDB, ≤ 100 ms)`,
    );
    const after = await retention.preview({ page: 1, limit: 1, sortOrder: 'ascend' });
    console.log(`preview after: ${after.total} entries`);
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
