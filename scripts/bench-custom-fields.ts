/**
 * Custom field values at scale, run by hand: `npm run bench:custom-fields` (SQLite file in a temp
 * dir), or with DATABASE_URL=mysql://... for MariaDB (that database is emptied first!). Loads
 * 100 000 employees (`--employees N`), times GET /employees/{id} and the list's first page before
 * any field is defined, then defines 30 fields (issue 66's figure: 10 of them in lists; a select, an
 * integer, a personal date, a unique text, a multiselect, a start date, and 24 more of every scalar
 * type) with a value for every employee (3.1 million rows) and times the same reads, filters, sorts,
 * a filtered and sorted first page, a PUT of one value and of ten, the CSV export of every employee
 * and an import of 10 000 new employees with 20 custom columns, through HTTP (autocannon, 10
 * connections, 5 s each, in the same process; a latency target on one connection as well). Issue
 * 66's targets are printed beside the figures. `--parts reads,export,import,type` runs some parts,
 * `--only <regular expression>` the reads whose names match, `--import-columns N` another width of
 * the import (0: its cost without custom columns), `--profile FILE` a CPU profile of the process
 * while the import runs (written to FILE, its top functions printed). Figures: docs/api/custom-fields.md.
 */
import 'reflect-metadata';
import autocannon from 'autocannon';
import { DataSource } from 'typeorm';
import { TokenService } from '../src/auth/token.service';
import { optimizeSqlite } from '../src/common/database/sqlite-statistics';
import { CustomFieldsService } from '../src/custom-fields/custom-fields.service';
import { CustomField } from '../src/custom-fields/entities/custom-field.entity';
import { encode } from '../src/custom-fields/values/custom-field-codec';
import { bulkEmployees } from '../src/database/seeds/bulk-employees';
import { ReferenceService } from '../src/reference/reference.service';
import { UsersService } from '../src/users/users.service';
import { profiled } from './cpu-profile';
import { BENCH_PASSWORD, bulkInsert, numberArg, textArg, withBenchApp } from './bench-tools';

const COUNT = numberArg('employees', 100_000);
/** `--parts reads,export,import,type`: which parts run after the load (all by default). */
const IMPORT_COLUMNS = numberArg('import-columns', 20);
/** `--only <regular expression>`: the timed reads whose names match it, the others skipped. */
const ONLY = new RegExp(textArg('only') ?? '');
const PARTS = new Set((textArg('parts') ?? 'reads,export,import,type').split(','));
const SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL', '3XL', '4XL', '5XL', '6XL'];
const LANGUAGES = ['de', 'en', 'es', 'fr', 'it', 'nl', 'pl', 'pt'];

async function main(): Promise<void> {
  await withBenchApp('custom-fields', { PORT: '3992' }, async (app, config) => {
    const ds = app.get(DataSource);
    const ref = app.get(ReferenceService);
    const root = await ref.addDepartment('Root', null);
    const t0 = Date.now();
    const first = await bulkEmployees(ds, COUNT, [root]);
    console.log(`${config.database.type}: loaded ${COUNT} employees in ${Date.now() - t0} ms`);
    const admin = await app
      .get(UsersService)
      .create({ username: 'bench-admin', email: 'bench-admin@x.test', password: BENCH_PASSWORD, level: 'Admin' });
    const token = (await app.get(TokenService).issue(admin)).access_token;
    await app.listen(config.port, config.host);
    const base = `http://${config.host}:${config.port}${config.apiPrefix}`;
    const middle = first + Math.floor(COUNT / 2);
    // A latency target is of one request (one connection: nothing queued behind another); 10 connections give the throughput.
    const run = async (name: string, path: string, extra: Partial<autocannon.Options> = {}) => {
      if (!ONLY.test(name)) return;
      const r = await autocannon({
        url: base + path,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        connections: 10,
        duration: 5,
        ...extra,
      });
      console.log(
        `${name.padEnd(58)} ${String(Math.round(r.requests.average)).padStart(6)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  non-2xx ${r.non2xx + r.errors}`,
      );
    };
    const analyze = async () => {
      if (config.database.type === 'mysql') await ds.query('ANALYZE TABLE employees, custom_field_values');
      else {
        await optimizeSqlite(ds);
        await ds.query('PRAGMA wal_checkpoint(TRUNCATE)'); // the bulk load's log, which every read would search
      }
    };
    await analyze();
    if (PARTS.has('reads')) {
      console.log('-- no custom field defined');
      await run('GET /departments (a control: no employee, no custom field)', '/departments');
      await run('GET /employees/{id}', `/employees/${middle}`);
      await run('GET /employees/{id}, one connection', `/employees/${middle}`, { connections: 1 });
      await run('GET /employees (first page of 50)', '/employees?limit=50');
    }

    const fields = app.get(CustomFieldsService);
    const defined: CustomField[] = [];
    const define = async (body: Parameters<CustomFieldsService['create']>[0]) =>
      defined.push(await ds.getRepository(CustomField).findOneByOrFail({ id: (await fields.create(body)).id }));
    await define({
      key: 'size',
      label: 'Size',
      type: 'select',
      options: SIZES.map((v) => ({ value: v, label: v })),
      in_list: true,
    });
    await define({ key: 'desks', label: 'Desks', type: 'integer', in_list: true });
    await define({ key: 'visa_expiry', label: 'Visa expiry', type: 'date', pii: true });
    await define({ key: 'badge', label: 'Badge', type: 'text', unique: true, in_list: true });
    await define({
      key: 'languages',
      label: 'Languages',
      type: 'multiselect',
      options: LANGUAGES.map((v) => ({ value: v, label: v })),
    });
    await define({ key: 'start_date', label: 'Start date', type: 'date', in_list: true });
    const kinds = ['text', 'integer', 'decimal', 'boolean', 'select', 'date'] as const;
    for (let n = 0; n < 24; n++) {
      const type = kinds[n % kinds.length];
      await define({
        key: `extra_${n}`,
        label: `Extra ${n}`,
        type,
        in_list: n < 6,
        ...(type === 'select' ? { options: SIZES.map((v) => ({ value: v, label: v })) } : {}),
      });
    }
    const day = (i: number) =>
      `${2020 + (i % 7)}-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`;
    const valueOf = (field: CustomField, i: number): unknown => {
      switch (field.key) {
        case 'size':
          return SIZES[i % SIZES.length];
        case 'desks':
          return i % 100;
        case 'visa_expiry':
          return `${2027 + (i % 3)}-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`;
        case 'badge':
          return `B-${String(i).padStart(7, '0')}`;
        case 'languages':
          return [LANGUAGES[i % LANGUAGES.length], LANGUAGES[(i + 3) % LANGUAGES.length]];
        case 'start_date':
          return day(i * 7);
      }
      switch (field.type) {
        case 'text':
          return `Text ${i % 1000}`;
        case 'integer':
          return i % 500;
        case 'decimal':
          return `${i % 1000}.${i % 100}`;
        case 'boolean':
          return i % 2 === 0;
        case 'select':
          return SIZES[(i + 1) % SIZES.length];
        case 'date':
        case 'email':
        case 'employee':
        case 'long_text':
        case 'multiselect':
        case 'url':
          return day(i);
      }
    };
    const t1 = Date.now();
    for (const field of defined) {
      const per = field.type === 'multiselect' ? 2 : 1;
      await bulkInsert(
        ds,
        'custom_field_values',
        ['field_id', 'employee_id', 'item', 'value_text', 'value_key', 'value_number', 'unique_key'],
        COUNT * per,
        (k) => {
          const i = Math.floor(k / per);
          const encoded = encode(field, valueOf(field, i));
          if ('problem' in encoded) throw new Error(encoded.problem);
          const row = encoded.rows[k % per];
          return [field.id, first + i, row.item, row.text, row.key, row.number, row.unique];
        },
      );
    }
    console.log(`loaded ${COUNT * (defined.length + 1)} values in ${Date.now() - t1} ms`);
    await analyze();
    console.log(
      `-- ${defined.length} fields (${defined.filter((f) => f.inList).length} in lists), a value each for every employee`,
    );
    if (PARTS.has('reads')) {
      await run('GET /departments (a control: no employee, no custom field)', '/departments');
      await run('GET /employees/{id}', `/employees/${middle}`);
      await run('GET /employees/{id}, one connection (target: p50 <= 1.2x before)', `/employees/${middle}`, {
        connections: 1,
      });
      await run('GET /employees (first page of 50, ten fields in lists)', '/employees?limit=50');
      await run('filters[custom.size]=M (a tenth)', '/employees?limit=50&filters[custom.size]=M');
      await run('filters[custom.desks]=10..12 (3 %)', '/employees?limit=50&filters[custom.desks]=10..12');
      await run('filters[custom.languages]=fr (a quarter)', '/employees?limit=50&filters[custom.languages]=fr');
      await run('filters[custom.badge]=B-0050000 (one)', '/employees?limit=50&filters[custom.badge]=B-0050000');
      await run(
        'filters[custom.size]=M, sortField=custom.start_date',
        '/employees?limit=50&filters[custom.size]=M&sortField=custom.start_date',
      );
      await run(
        'the same, one connection (target p50: 10 ms SQLite, 20 MariaDB)',
        '/employees?limit=50&filters[custom.size]=M&sortField=custom.start_date',
        { connections: 1 },
      );
      await run('sortField=custom.badge, page 1', '/employees?limit=50&sortField=custom.badge');
      await run('sortField=custom.badge, page 1000', '/employees?limit=50&page=1000&sortField=custom.badge');
      const one = { desks: 7 };
      const ten = Object.fromEntries(
        defined
          .filter((f) => f.type !== 'multiselect' && !f.unique)
          .slice(0, 10)
          .map((f, n) => [f.key, valueOf(f, n + 3)]),
      );
      await run('PUT /employees/{id} one custom value', `/employees/${middle}`, {
        method: 'PUT',
        body: JSON.stringify({ custom_fields: one }),
      });
      await run('PUT /employees/{id} ten custom values (target: p50 <= 1.3x one)', `/employees/${middle + 1}`, {
        method: 'PUT',
        body: JSON.stringify({ custom_fields: ten }),
      });
    }
    // The CSV export of every employee (a column per field).
    if (PARTS.has('export')) {
      const tExport = Date.now();
      const exported = await fetch(`${base}/employees?format=csv`, { headers: { authorization: `Bearer ${token}` } });
      const lines = (await exported.text()).split('\n').filter(Boolean).length - 1;
      const exportMs = Date.now() - tExport;
      console.log(
        `CSV export: ${lines} rows in ${exportMs} ms, ${Math.round((lines * 1000) / exportMs)} rows/s (target >= 20 000)`,
      );
    }

    // An import of 10 000 new employees with 20 custom columns (`--import-columns N`; 0: the import's cost without them).
    if (PARTS.has('import')) {
      const columns = defined.filter((f) => !f.unique && f.type !== 'multiselect').slice(0, IMPORT_COLUMNS);
      const rows = [['employee_id', 'first_name', 'last_name', 'joined_date', ...columns.map((f) => f.key)].join(',')];
      for (let i = 0; i < 10_000; i++)
        rows.push([`IMP${i}`, 'Imported', `Row${i}`, '2025-01-06', ...columns.map((f) => String(valueOf(f, i)))].join(','));
      await profiled(textArg('profile'), 40, async () => {
        const tImport = Date.now();
        const send = () =>
          fetch(`${base}/imports?kind=employees&dry_run=false`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${token}`,
              'content-type': 'text/csv',
              'content-disposition': 'attachment; filename="bench.csv"',
            },
            body: rows.join('\n'),
          });
        // Once more on a fresh connection when the export's kept-alive one was closed meanwhile.
        const upload = await send().catch(send);
        const id = ((await upload.json()) as { data: { id: number } }).data.id;
        let status = '';
        let valid = 0;
        let shown = Date.now();
        while (!['Completed', 'Failed', 'Validated'].includes(status)) {
          await new Promise((r) => setTimeout(r, 50));
          const got = (await (
            await fetch(`${base}/imports/${id}`, { headers: { authorization: `Bearer ${token}` } })
          ).json()) as {
            data: { status: string; rows_valid: number; progress: number };
          };
          ({ status, rows_valid: valid } = got.data);
          if (Date.now() - shown > 10_000) {
            shown = Date.now();
            console.log(`  import ${status}, progress ${got.data.progress} %, ${Math.round((Date.now() - tImport) / 1000)} s`);
          }
        }
        const importMs = Date.now() - tImport;
        console.log(
          `import of 10 000 employees, ${columns.length} custom columns: ${status}, ${valid} rows in ${importMs} ms, ${Math.round((valid * 1000) / importMs)} rows/s (target >= 3 000)`,
        );
      });
    }
    if (PARTS.has('type')) {
      const t2 = Date.now();
      await fields.update(defined[1].id, { type: 'text' });
      console.log(`type change integer → text of ${COUNT} values: ${Date.now() - t2} ms`);
    }
    console.log(`RSS ${Math.round(process.memoryUsage().rss / 1048576)} MiB`);
  });
}

void main();
