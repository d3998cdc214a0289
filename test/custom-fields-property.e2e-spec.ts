import { buildCompany, Company } from './helpers/company';
import { rng } from './helpers/random';
import { apiCaller, createTestApp, okCaller, TestApp } from './helpers/test-app';

/**
 * Custom field values against a model (issue 66): random fields of the types that convert into one
 * another (integer, decimal, text, boolean) and the selects, then random writes (valid values,
 * clears, an invalid value among valid ones, an employee's own writes), type changes, option
 * removals and deletions of fields, each field with random audiences, personal or not, editable by
 * the employee or not; after every step what each level reads of each employee it sees (an Admin, a
 * Restricted Admin, a Manager on itself and its reports, an Employee on itself), and a filter by a
 * value, equal the model's, and every refused write changed nothing. The model is its own: values
 * as the API answers them, the visibility rules of docs/api/decisions.md §26, a type change
 * converting each value through its text (refused whole when one does not fit), an option in use
 * kept. CUSTOM_FIELD_SEQUENCES sets the number (3 in npm test).
 */
const SEQUENCES = Number(process.env.CUSTOM_FIELD_SEQUENCES ?? 3);
const STEPS = 12;
const LEVELS = ['Admin', 'Restricted Admin', 'Manager', 'Employee', 'self'];
const SCALARS = ['integer', 'decimal', 'text', 'boolean'] as const;
type Scalar = (typeof SCALARS)[number];
type Value = string | number | boolean | string[] | null;
interface ModelField {
  id: number;
  key: string;
  type: Scalar | 'select' | 'multiselect';
  options: string[];
  visibleTo: string[];
  pii: boolean;
  editableBy: 'admin' | 'self';
}
interface Reader {
  token: string;
  level: string;
  /** Its own employee record, if any. */
  employee: number | null;
  /** The employees of the sequence it may read. */
  sees: number[];
}

/**
 * What a reader sees of a field on an employee, by the rules of docs/api/decisions.md §26: an Admin
 * every value; anyone else the fields naming its level, and on its own record those naming `self`;
 * a personal value is null to a caller below Restricted Admin on somebody else's record.
 */
function sight(f: ModelField, reader: Reader, employee: number): 'absent' | 'hidden' | 'value' {
  if (reader.level === 'Admin') return 'value';
  const self = reader.employee === employee;
  if (!f.visibleTo.includes(reader.level) && !(self && f.visibleTo.includes('self'))) return 'absent';
  return f.pii && !self && reader.level !== 'Restricted Admin' ? 'hidden' : 'value';
}

/** The model's text of a value (what a type change reads). */
const textOf = (v: Value) => (v === null ? '' : Array.isArray(v) ? v.join(';') : String(v));
/** A decimal's canonical form: "1.50" → "1.5", "007" → "7". */
const canonical = (text: string) => {
  const [whole, fraction = ''] = text.replace(/^-/, '').split('.');
  const trimmed = fraction.replace(/0+$/, '');
  const body = `${whole.replace(/^0+(?=\d)/, '')}${trimmed ? `.${trimmed}` : ''}`;
  return text.startsWith('-') && /[1-9]/.test(body) ? `-${body}` : body;
};
/** A value of `text` read as `type` by the model; undefined when it does not fit. */
function convert(text: string, type: Scalar): Value | undefined {
  if (text === '') return null;
  switch (type) {
    case 'text':
      return text;
    case 'integer':
      return /^-?\d{1,15}$/.test(text) ? Number(text) : undefined;
    case 'decimal':
      return /^-?\d{1,18}(\.\d{1,6})?$/.test(text) ? canonical(text) : undefined;
    case 'boolean': {
      const lower = text.toLowerCase();
      if (['true', 'yes', '1'].includes(lower)) return true;
      if (['false', 'no', '0'].includes(lower)) return false;
      return undefined;
    }
  }
}

describe('custom fields: random sequences against a model (issue 66)', () => {
  let t: TestApp;
  let c: Company;
  let ok: ReturnType<typeof okCaller>;
  let call: ReturnType<typeof apiCaller>;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    ok = okCaller(t.app);
    call = apiCaller(t.app);
    admin = c.users.admin.token;
  });
  afterAll(() => t.close());

  it(`${SEQUENCES} sequences: what every level reads, filters, own writes, type changes, option removals and deletions equal the model's`, async () => {
    const employees = [c.emp.manager, c.emp.report1, c.emp.report2, c.emp.outsider];
    const { manager, report1, report2 } = c.emp;
    const readers: Reader[] = [
      { token: admin, level: 'Admin', employee: null, sees: employees },
      { token: c.users.restricted.token, level: 'Restricted Admin', employee: null, sees: [manager, report1, report2] },
      { token: c.users.manager.token, level: 'Manager', employee: manager, sees: [manager, report1, report2] },
      { token: c.users.employee.token, level: 'Employee', employee: report1, sees: [report1] },
    ];
    const self = readers[3];
    let counter = 0;
    let refusals = 0;
    let conversions = 0;
    for (let seq = 0; seq < SEQUENCES; seq++) {
      const r = rng(6600 + seq);
      const fields: ModelField[] = [];
      const model = new Map<number, Map<string, Value>>(employees.map((e) => [e, new Map()]));
      const valueFor = (f: ModelField): Value => {
        switch (f.type) {
          case 'integer':
            return r.int(-50, 500);
          case 'decimal':
            return canonical(`${r.int(0, 999)}.${r.int(0, 99)}`);
          case 'text':
            return r.pick(['17', '-3', '2.50', 'yes', 'no', 'abc', 'Zürich', '0']);
          case 'boolean':
            return r.int(0, 1) === 1;
          case 'select':
            return r.pick(f.options);
          case 'multiselect':
            return f.options.filter(() => r.int(0, 1) === 1);
        }
      };
      const addField = async () => {
        const type = r.pick([...SCALARS, 'select', 'multiselect'] as const);
        const options = type === 'select' || type === 'multiselect' ? ['a', 'b', 'c'].slice(0, r.int(2, 3)) : [];
        const key = `p${++counter}`;
        const visibleTo = LEVELS.filter(() => r.chance(0.6));
        const [pii, editableBy] = [r.chance(0.3), r.chance(0.4) ? ('self' as const) : ('admin' as const)];
        const body = {
          key,
          label: key,
          type,
          visible_to: visibleTo,
          pii,
          editable_by: editableBy,
          ...(options.length ? { options: options.map((v) => ({ value: v, label: v })) } : {}),
        };
        fields.push({ id: (await ok('POST', '/custom-fields', admin, body)).id, key, type, options, visibleTo, pii, editableBy });
      };
      const check = async (step: string) => {
        for (const reader of readers)
          for (const e of reader.sees) {
            const got = (await ok('GET', `/employees/${e}`, reader.token)).custom_fields as Record<string, Value>;
            const want: Record<string, Value> = {};
            for (const f of fields) {
              const seen = sight(f, reader, e);
              if (seen !== 'absent') want[f.key] = seen === 'hidden' ? null : (model.get(e)!.get(f.key) ?? null);
            }
            expect([step, reader.level, e, got]).toEqual([step, reader.level, e, want]);
          }
        // A filter by one held value: the employees holding it.
        const f = fields.find((x) => x.type === 'select' || x.type === 'integer');
        const held = f && employees.map((e) => model.get(e)!.get(f.key)).find((v) => v !== null && v !== undefined);
        if (f && held !== undefined) {
          const res = await ok('GET', `/employees?limit=500&filters[custom.${f.key}]=${encodeURIComponent(String(held))}`, admin);
          const ids = (res as Array<{ id: number }>).map((e) => e.id).filter((id) => employees.includes(id));
          const want = employees.filter((e) => model.get(e)!.get(f.key) === held);
          expect([step, f.key, held, ids.sort()]).toEqual([step, f.key, held, want.sort()]);
        }
      };

      for (let i = 0; i < 3; i++) await addField();
      for (let step = 0; step < STEPS; step++) {
        const op = r.int(0, 9);
        const name = `seq ${seq} step ${step} op ${op}`;
        if (!fields.length || op === 0) {
          await addField();
        } else if (op === 4) {
          // The employee writes a field on its own record: 200 for one it sees and edits, 403 for one
          // it sees and may not edit, 400 for one it does not see (as an unknown one); nothing else moves.
          const f = r.pick(fields);
          const value = valueFor(f);
          const res = await call('PUT', `/employees/${report1}`, self.token, { custom_fields: { [f.key]: value } });
          const seen = sight(f, self, report1);
          const same =
            JSON.stringify(model.get(report1)!.get(f.key) ?? null) ===
            JSON.stringify(Array.isArray(value) && !value.length ? null : value);
          const expected = seen === 'absent' ? 400 : f.editableBy === 'self' || same ? 200 : 403;
          expect([name, f.key, res.statusCode]).toEqual([name, f.key, expected]);
          if (expected === 200) model.get(report1)!.set(f.key, Array.isArray(value) && !value.length ? null : value);
          else refusals++;
        } else if (op <= 3) {
          // A write of some fields of one employee: values or clears.
          const e = r.pick(employees);
          const body: Record<string, Value> = {};
          for (const f of fields) if (r.int(0, 2) > 0) body[f.key] = r.int(0, 4) === 0 ? null : valueFor(f);
          await ok('PUT', `/employees/${e}`, admin, { custom_fields: body });
          for (const [key, v] of Object.entries(body)) model.get(e)!.set(key, Array.isArray(v) && !v.length ? null : v);
        } else if (op === 5) {
          // A valid value beside an invalid one: refused whole, nothing written.
          const [good, bad] = [r.pick(fields), r.pick(fields)];
          const invalid = bad.type === 'text' ? 12 : bad.type === 'boolean' ? 'maybe' : 'not-a-value';
          const res = await call('PUT', `/employees/${r.pick(employees)}`, admin, {
            custom_fields: { [good.key]: valueFor(good), [bad.key]: invalid },
          });
          expect([name, res.statusCode, res.json().error.details.map((d: { field: string }) => d.field)]).toEqual([
            name,
            400,
            [`custom_fields.${bad.key}`],
          ]);
          refusals++;
        } else if (op <= 7) {
          // A type change among the scalars: every value converts through its text, or none does.
          const scalars = fields.filter((x) => (SCALARS as readonly string[]).includes(x.type));
          if (!scalars.length) continue;
          const f = r.pick(scalars);
          const to = r.pick(SCALARS.filter((s) => s !== f.type));
          const converted = employees.map((e) => [e, convert(textOf(model.get(e)!.get(f.key) ?? null), to)] as const);
          const res = await call('PUT', `/custom-fields/${f.id}`, admin, { type: to });
          if (converted.some(([, v]) => v === undefined)) {
            expect([name, res.statusCode, res.json().error?.code]).toEqual([name, 409, 'CONFLICT']);
          } else {
            expect([name, res.statusCode]).toEqual([name, 200]);
            f.type = to;
            for (const [e, v] of converted) model.get(e)!.set(f.key, v!);
            conversions++;
          }
        } else if (op === 8) {
          // An option removed: refused while an employee holds it.
          const selects = fields.filter((x) => x.options.length > 1);
          if (!selects.length) continue;
          const f = r.pick(selects);
          const gone = r.pick(f.options);
          const inUse = employees.some((e) => {
            const v = model.get(e)!.get(f.key);
            return v === gone || (Array.isArray(v) && v.includes(gone));
          });
          const kept = f.options.filter((o) => o !== gone);
          const res = await call('PUT', `/custom-fields/${f.id}`, admin, { options: kept.map((v) => ({ value: v, label: v })) });
          if (inUse) expect([name, res.statusCode, res.json().error?.code]).toEqual([name, 409, 'IN_USE']);
          else {
            expect([name, res.statusCode]).toEqual([name, 200]);
            f.options = kept;
          }
        } else {
          const f = fields.splice(r.int(0, fields.length - 1), 1)[0];
          await ok('DELETE', `/custom-fields/${f.id}`, admin);
          for (const e of employees) model.get(e)!.delete(f.key);
        }
        await check(name);
      }
      for (const f of fields) await ok('DELETE', `/custom-fields/${f.id}`, admin);
    }
    expect(refusals).toBeGreaterThan(0);
    expect(conversions).toBeGreaterThan(0);
  }, 600_000);
});
