/**
 * Custom field values at scale, run by hand: `npm run bench:custom-fields` (SQLite file in a temp
 * dir), or with DATABASE_URL=mysql://... for MariaDB (that database is emptied first!). Loads
 * 100 000 employees (`--employees N`), times GET /employees/{id} and the list's first page before
 * any field is defined, then defines five fields (a select in lists, an integer, a personal date, a
 * unique text, a multiselect) with a value for every employee (two options each for the
 * multiselect: 600 000 rows) and times the same reads, the filters, the sorts and a PUT of values
 * through HTTP (autocannon, 10 connections, 5 s each, in the same process).
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
import { BENCH_PASSWORD, bulkInsert, numberArg, withBenchApp } from './bench-tools';

const COUNT = numberArg('employees', 100_000);
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
    const run = async (name: string, path: string, extra: Partial<autocannon.Options> = {}) => {
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
    console.log('-- no custom field defined');
    await run('GET /departments (a control: no employee, no custom field)', '/departments');
    await run('GET /employees/{id}', `/employees/${middle}`);
    await run('GET /employees (first page of 50)', '/employees?limit=50');

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
    await define({ key: 'desks', label: 'Desks', type: 'integer' });
    await define({ key: 'visa_expiry', label: 'Visa expiry', type: 'date', pii: true });
    await define({ key: 'badge', label: 'Badge', type: 'text', unique: true });
    await define({
      key: 'languages',
      label: 'Languages',
      type: 'multiselect',
      options: LANGUAGES.map((v) => ({ value: v, label: v })),
    });
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
        default:
          return [LANGUAGES[i % LANGUAGES.length], LANGUAGES[(i + 3) % LANGUAGES.length]];
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
    console.log('-- five fields, a value each for every employee');
    await run('GET /departments (a control: no employee, no custom field)', '/departments');
    await run('GET /employees/{id}', `/employees/${middle}`);
    await run('GET /employees (first page of 50, one field in lists)', '/employees?limit=50');
    await run('filters[custom.size]=M (a tenth)', '/employees?limit=50&filters[custom.size]=M');
    await run('filters[custom.desks]=10..12 (3 %)', '/employees?limit=50&filters[custom.desks]=10..12');
    await run('filters[custom.languages]=fr (a quarter)', '/employees?limit=50&filters[custom.languages]=fr');
    await run('filters[custom.badge]=B-0050000 (one)', '/employees?limit=50&filters[custom.badge]=B-0050000');
    await run('sortField=custom.badge, page 1', '/employees?limit=50&sortField=custom.badge');
    await run('sortField=custom.badge, page 1000', '/employees?limit=50&page=1000&sortField=custom.badge');
    await run('PUT /employees/{id} {custom_fields: {desks, size}}', `/employees/${middle}`, {
      method: 'PUT',
      body: JSON.stringify({ custom_fields: { desks: 7, size: 'L' } }),
    });
    const t2 = Date.now();
    await fields.update(defined[1].id, { type: 'text' });
    console.log(`type change integer → text of ${COUNT} values: ${Date.now() - t2} ms`);
    console.log(`RSS ${Math.round(process.memoryUsage().rss / 1048576)} MiB`);
  });
}

void main();
