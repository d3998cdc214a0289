import { DataSource } from 'typeorm';
import { AuthUser } from '../src/common/auth/auth-user';
import { DomainException } from '../src/common/errors/domain.exception';
import { addDays } from '../src/common/time/days';
import { EmployeesService } from '../src/employees/employees.service';
import { EmploymentHistoryService } from '../src/employees/history/employment-history.service';
import { ReferenceService } from '../src/reference/reference.service';
import { employeeBody } from './helpers/company';
import { rng } from './helpers/random';
import { createTestApp, createUser, okCaller, TestApp } from './helpers/test-app';
import { LeaveAccrualsService } from '../src/leave/ledger/leave-accruals.service';
import { LeaveLiabilityService } from '../src/leave/ledger/leave-liability.service';

/**
 * Property-based test of employment history through the service and the database (issue 43):
 * random sequences of changes (some back-dated, some Scheduled), cancellations and corrections of
 * random changes over a new employee, checked against a model written here, independently of
 * segmentsAt: for each field and day, the value set by the standing change that was effective
 * latest by that day (then recorded latest). At every instant noted after an operation (known_at)
 * the history route equals the model as known then; the stored segments (the as-of reads) and the
 * employee row equal the model as known now, on every day of the window and today.
 * HISTORY_SEQUENCES sets the number (40 in npm test and on MariaDB, npm run test:history 5 000 in .ci/run).
 */
const SEQUENCES = Number(process.env.HISTORY_SEQUENCES ?? 40);
/** Sequences of the past-day readers (accruals, liability, rollups): a tenth, each runs the accrual job after every change. */
const PAST_SEQUENCES = Math.max(10, Math.round(SEQUENCES / 10));
const FIELDS = ['department', 'job_title', 'supervisor'] as const;
type Field = (typeof FIELDS)[number];

interface ModelChange {
  id: number;
  day: string;
  recordedAt: number;
  fields: Partial<Record<Field, number | null>>;
  cancelledAt: number | null;
  corrects: number | null;
}

/** A call's result, or the error it threw. */
const attempt = <T>(p: Promise<T>): Promise<T | Error> => p.catch((e: Error) => e);

/** The model's value of `field` on `day` as known at `at`. */
function valueOn(changes: ModelChange[], field: Field, day: string, at: number): number | null | undefined {
  const standing = (c: ModelChange) => c.recordedAt <= at && !(c.cancelledAt !== null && c.cancelledAt <= at);
  const hidden = new Set(changes.filter((c) => c.corrects !== null && standing(c)).map((c) => c.corrects));
  let best: ModelChange | null = null;
  for (const c of changes) {
    if (!standing(c) || hidden.has(c.id) || c.day > day || !(field in c.fields)) continue;
    if (
      !best ||
      c.day > best.day ||
      (c.day === best.day && (c.recordedAt > best.recordedAt || (c.recordedAt === best.recordedAt && c.id > best.id)))
    )
      best = c;
  }
  return best ? best.fields[field] : undefined;
}

describe('employment history: random sequences against a model (issue 43)', () => {
  let t: TestApp;
  let ds: DataSource;
  let history: EmploymentHistoryService;
  let employees: EmployeesService;
  const admin: AuthUser = {
    id: 1,
    username: 'property',
    email: 'property@test.example',
    level: 'Admin',
    employeeId: null,
    departmentIds: [],
    mustChangePassword: false,
    grantId: 'property',
  };
  const today = new Date().toISOString().slice(0, 10);
  const first = addDays(today, -12);
  const days = Array.from({ length: 25 }, (_, i) => addDays(first, i));
  const pools: Record<Field, number[]> = { department: [], job_title: [], supervisor: [] };

  beforeAll(async () => {
    t = await createTestApp();
    ds = t.app.get(DataSource);
    history = t.app.get(EmploymentHistoryService);
    employees = t.app.get(EmployeesService);
    const ref = t.app.get(ReferenceService);
    for (let i = 0; i < 3; i++) pools.department.push(await ref.addDepartment(`Property ${i}`, null));
    for (let i = 0; i < 2; i++) pools.job_title.push((await ref.crud('job-titles').create({ name: `Property ${i}` })).id);
    for (let i = 0; i < 2; i++) pools.supervisor.push((await employees.create(employeeBody({ joined_date: '2020-01-01' }))).id);
  });
  afterAll(() => t.close());

  it(`${SEQUENCES} sequences: history at every known_at, segments and the row now, equal the model`, async () => {
    const problems: string[] = [];
    for (let seq = 0; seq < SEQUENCES && problems.length < 5; seq++) {
      const r = rng(seq + 1);
      const initial = { department: r.pick(pools.department), job_title: r.pick(pools.job_title), supervisor: null };
      const id = (await employees.create(employeeBody({ joined_date: first, ...initial }))).id;
      const recorded = await history.changes(admin, id);
      const model: ModelChange[] = recorded.map((c) => ({
        id: c.id,
        day: c.effective_date,
        recordedAt: Date.parse(c.recorded_at),
        fields: { department: c.fields.department, job_title: c.fields.job_title, supervisor: c.fields.supervisor },
        cancelledAt: null,
        corrects: null,
      }));
      const instants: number[] = [];
      const randomFields = () => {
        const fields: Partial<Record<Field, number | null>> = {};
        for (const f of FIELDS) if (r.chance(0.45)) fields[f] = f === 'department' || !r.chance(0.25) ? r.pick(pools[f]) : null;
        if (!Object.keys(fields).length) fields.department = r.pick(pools.department);
        return fields;
      };
      const ops = r.int(2, 7);
      for (let op = 0; op < ops; op++) {
        const kind = model.length > 1 && r.chance(0.35) ? (r.chance(0.5) ? 'cancel' : 'correct') : 'record';
        try {
          if (kind === 'record') {
            const fields = randomFields();
            const c = await history.record(admin, id, { effective_date: r.pick(days), fields });
            model.push({
              id: c.id,
              day: c.effective_date,
              recordedAt: Date.parse(c.recorded_at),
              fields,
              cancelledAt: null,
              corrects: null,
            });
          } else {
            const target = r.pick(model);
            const status = (await history.changes(admin, id)).find((c) => c.id === target.id)!.status;
            const corrected = model.some((c) => c.corrects === target.id && c.cancelledAt === null);
            if (kind === 'cancel') {
              const c = await attempt(history.cancel(admin, id, target.id));
              if (status !== 'Scheduled') {
                if (!(c instanceof DomainException) || c.code !== 'INVALID_STATE')
                  problems.push(`seq ${seq}: cancel of ${status} gave ${c instanceof Error ? c.message : 'success'}`);
              } else if (c instanceof Error) throw c;
              else target.cancelledAt = -1;
              if (!(c instanceof Error)) {
                const after = (await history.changes(admin, id)).find((x) => x.id === target.id)!;
                expect(after.status).toBe('Cancelled');
              }
            } else {
              const fields = r.chance(0.7) ? randomFields() : undefined;
              const day = r.chance(0.4) ? r.pick(days) : undefined;
              const c = await attempt(history.correct(admin, id, target.id, { reason: 'fix', fields, effective_date: day }));
              if (status === 'Cancelled' || corrected) {
                if (!(c instanceof DomainException) || c.code !== 'INVALID_STATE')
                  problems.push(
                    `seq ${seq}: correct of ${status}${corrected ? ' (corrected)' : ''} gave ${c instanceof Error ? c.message : 'success'}`,
                  );
              } else if (c instanceof Error) throw c;
              else {
                const at = Date.parse(c.recorded_at);
                if (status === 'Scheduled') target.cancelledAt = -1;
                model.push({
                  id: c.id,
                  day: c.effective_date,
                  recordedAt: at,
                  fields: { ...target.fields, ...(fields ?? {}) },
                  cancelledAt: null,
                  corrects: target.id,
                });
              }
            }
          }
        } catch (err) {
          problems.push(`seq ${seq} op ${op} ${kind}: ${(err as Error).message}`);
        }
        // A cancellation's instant is the server's: read back those the model marked (-1), one query.
        if (model.some((m) => m.cancelledAt === -1)) {
          const rows: Array<{ id: number | string; cancelled_at: string | Date }> = await ds.query(
            'SELECT id, cancelled_at FROM employment_changes WHERE employee_id = ? AND cancelled_at IS NOT NULL',
            [id],
          );
          for (const r of rows) {
            const m = model.find((x) => x.id === Number(r.id));
            const v = r.cancelled_at;
            if (m?.cancelledAt === -1)
              m.cancelledAt = v instanceof Date ? v.getTime() : Date.parse(`${String(v).replace(' ', 'T')}Z`);
          }
        }
        instants.push(Math.max(...model.map((c) => Math.max(c.recordedAt, c.cancelledAt ?? 0))));
      }

      const expectDays = (label: string, at: number, actual: (day: string) => Partial<Record<Field, number | null>> | null) => {
        for (const day of days) {
          const want = Object.fromEntries(FIELDS.map((f) => [f, valueOn(model, f, day, at) ?? null]));
          const got = actual(day);
          const gotFields = Object.fromEntries(FIELDS.map((f) => [f, got?.[f] ?? null]));
          if (JSON.stringify(gotFields) !== JSON.stringify(want))
            problems.push(`seq ${seq} ${label} ${day}: got ${JSON.stringify(gotFields)}, model ${JSON.stringify(want)}`);
        }
      };
      for (const at of [...instants, Date.now()]) {
        const segments = await history.history(admin, id, new Date(at).toISOString());
        expectDays(
          `history known_at ${new Date(at).toISOString()}`,
          at,
          (day) => [...segments].reverse().find((s) => s.effective_from <= day) ?? null,
        );
      }
      const stored: Array<{
        effective_from: string;
        department_id: number | null;
        job_title_id: number | null;
        supervisor_id: number | null;
      }> = await ds.query(
        'SELECT effective_from, department_id, job_title_id, supervisor_id FROM employment_segments WHERE employee_id = ? ORDER BY effective_from DESC',
        [id],
      );
      // The stored segments and the row hold every recording so far. The server records two changes
      // of one employee at least a millisecond apart (nextInstant), so a burst of writes runs its
      // instants a few milliseconds ahead of the clock: "so far" is the last instant, not Date.now().
      const sofar = Math.max(Date.now(), ...instants);
      expectDays('stored segments', sofar, (day) => {
        const s = stored.find((x) => String(x.effective_from).slice(0, 10) <= day);
        return s ? { department: s.department_id, job_title: s.job_title_id, supervisor: s.supervisor_id } : null;
      });
      const row = await employees.get(admin, id);
      if (FIELDS.every((f) => valueOn(model, f, today, sofar) === undefined)) continue; // not joined today, as corrected
      const want = Object.fromEntries(FIELDS.map((f) => [f, valueOn(model, f, today, sofar) ?? null]));
      const got = Object.fromEntries(FIELDS.map((f) => [f, row[f] ?? null]));
      if (JSON.stringify(got) !== JSON.stringify(want))
        problems.push(`seq ${seq} row: ${JSON.stringify(got)} vs ${JSON.stringify(want)}`);
    }
    expect(problems).toEqual([]);
  }, 600_000);

  // Past days read the history (item 4): the accrual job grants a month by the department of its
  // last day, the liability counts a balance under the department of its day, and the insights
  // rollups count a record under the department of its day, however the history was recorded.
  it(`${PAST_SEQUENCES} sequences: accruals, the liability and the insights rollups read the department of each day`, async () => {
    const token = (await createUser(t.app, 'Admin')).token;
    const ok = okCaller(t.app);
    for (const y of [2025, 2026])
      await ok('POST', '/leave-periods', token, { name: `${y}`, date_start: `${y}-01-01`, date_end: `${y}-12-31` });
    const type = (await ok('POST', '/leave-types', token, { name: 'Property leave', default_days: 0 })).id as number;
    const policy = (
      await ok('POST', '/leave-policies', token, { name: 'Property monthly', leave_type: type, accrual: 'monthly', amount: 1 })
    ).id as number;
    const [accruing] = pools.department;
    await ok('POST', '/leave-policy-assignments', token, { policy, department: accruing, valid_from: '2025-01-01' });
    const year = Array.from({ length: 365 }, (_, i) => addDays('2025-01-01', i));
    const monthEnds = year.filter((d) => addDays(d, 1).slice(8) === '01');
    const ledger = t.app.get(LeaveAccrualsService);

    const problems: string[] = [];
    const liability = new Map<number, { employees: number; days: number }>();
    const attendance = new Map<string, number>();
    for (let seq = 0; seq < PAST_SEQUENCES && problems.length < 5; seq++) {
      const r = rng(100_000 + seq);
      const id = (await employees.create(employeeBody({ joined_date: '2025-01-01', department: r.pick(pools.department) }))).id;
      const model: Array<{ id: number; day: string; at: number; department: number; corrects: number | null }> = (
        await history.changes(admin, id)
      ).map((c) => ({
        id: c.id,
        day: c.effective_date,
        at: Date.parse(c.recorded_at),
        department: c.fields.department!,
        corrects: null,
      }));
      const days = [...new Set([r.pick(year), r.pick(year), r.pick(year)])];
      for (const day of days)
        await ok('POST', '/attendance', token, { employee: id, in_time: `${day}T09:00:00Z`, out_time: `${day}T17:00:00Z` });
      for (let op = r.int(1, 4); op > 0; op--) {
        const department = r.pick(pools.department);
        const target = model.length > 1 && r.chance(0.3) ? r.pick(model.slice(1)) : null;
        const corrected = target && model.some((m) => m.corrects === target.id);
        const c =
          target && !corrected
            ? await history.correct(admin, id, target.id, { reason: 'fix', fields: { department }, effective_date: r.pick(year) })
            : await history.record(admin, id, { effective_date: r.pick(year), fields: { department } });
        model.push({
          id: c.id,
          day: c.effective_date,
          at: Date.parse(c.recorded_at),
          department,
          corrects: target && !corrected ? target.id : null,
        });
        await ledger.accrue('2026-01-15', false, [id]);
      }
      const hidden = new Set(model.map((m) => m.corrects));
      const departmentOn = (day: string) =>
        model
          .filter((m) => !hidden.has(m.id) && m.day <= day)
          .sort((a, b) => a.day.localeCompare(b.day) || a.at - b.at || a.id - b.id)
          .pop()?.department ?? null;
      const granted = monthEnds.filter((d) => departmentOn(d) === accruing);
      const net = new Map<string, number>();
      for (const x of (await ok('GET', `/employees/${id}/leave-ledger?limit=500`, token)) as Array<{
        kind: string;
        date: string;
        days: number;
        leave_type: number;
      }>)
        if (x.kind === 'accrual' && x.leave_type === type)
          net.set(x.date, Math.round(((net.get(x.date) ?? 0) + x.days) * 100) / 100);
      // The model covers 2025: the daily accrual job (its first run a minute after the start) may
      // accrue up to today while this test runs.
      const got = [...net]
        .filter(([day, d]) => d !== 0 && day <= '2025-12-31')
        .map(([d]) => d)
        .sort();
      if (JSON.stringify(got) !== JSON.stringify(granted))
        problems.push(`seq ${seq} accruals on ${got.join(',')}, model ${granted.join(',')}`);
      if (granted.length) {
        const row = liability.get(departmentOn('2025-12-31')!) ?? { employees: 0, days: 0 };
        liability.set(departmentOn('2025-12-31')!, { employees: row.employees + 1, days: row.days + granted.length });
      }
      for (const day of days)
        attendance.set(`${day}|${departmentOn(day)}`, (attendance.get(`${day}|${departmentOn(day)}`) ?? 0) + 1);
    }
    expect(problems).toEqual([]);
    const owed = (await t.app.get(LeaveLiabilityService).liability({ kind: 'all' }, '2025-12-31')).filter(
      (x) => x.leaveType === type,
    );
    expect(new Map(owed.map((x) => [x.department, { employees: x.employees, days: x.days / 100 }]))).toEqual(liability);
    const rows: Array<{ day: string | Date; department_id: number | string; records: number | string }> = await ds.query(
      "SELECT day, department_id, records FROM attendance_days WHERE day >= '2025-01-01' AND day <= '2025-12-31' AND records <> 0",
    );
    expect(
      new Map(
        rows.map((x) => [
          `${(x.day instanceof Date ? x.day.toISOString() : String(x.day)).slice(0, 10)}|${Number(x.department_id)}`,
          Number(x.records),
        ]),
      ),
    ).toEqual(attendance);
  }, 600_000);
});
