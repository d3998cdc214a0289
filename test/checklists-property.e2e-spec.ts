import { CompanyClock } from '../src/common/time/company-clock';
import { addDays } from '../src/common/time/days';
import { OutboxRelay } from '../src/common/outbox/outbox-relay';
import { EmploymentHistoryJobs } from '../src/employees/history/employment-history.jobs';
import { buildCompany, Company, employeeBody } from './helpers/company';
import { rng } from './helpers/random';
import { apiCaller, createTestApp, createUser, okCaller, TestApp, TestUser } from './helpers/test-app';

/**
 * Lifecycle checklists against a model (issue 67's acceptance): random templates (hire,
 * termination, transfer; a department condition or none; items with offsets), then random hires,
 * transfers (dated changes of department), corrections and cancellations of scheduled changes,
 * termination dates set, moved and cleared, completions of items and days passing (the employment
 * job run on each). After every step the checklists of the sequence's employees (template, trigger,
 * effective date, status, each item's due day and status) and who can use its token equal the
 * model's. CHECKLIST_SEQUENCES sets the number (6 in npm test; .ci/run runs more).
 */
const SEQUENCES = Number(process.env.CHECKLIST_SEQUENCES ?? 6);
const STEPS = 20;
const TRIGGERS = ['hire', 'termination', 'transfer'] as const;

/** The model's rule: done once every required item not cancelled is completed; without required items, once none is open and one was completed. */
function done(items: ReadonlyArray<{ required: boolean; status: string }>): boolean {
  const required = items.filter((i) => i.required && i.status !== 'Cancelled');
  return required.length
    ? required.every((i) => i.status === 'Completed')
    : !items.some((i) => i.status === 'Open') && items.some((i) => i.status === 'Completed');
}

interface ModelTemplate {
  id: number;
  trigger: (typeof TRIGGERS)[number];
  department: number | null;
  items: Array<{ offset: number; required: boolean }>;
}
interface ModelItem {
  offset: number;
  required: boolean;
  due: string;
  status: 'Open' | 'Completed' | 'Cancelled';
}
interface ModelChecklist {
  template: number;
  employee: number;
  trigger: string;
  origin: string;
  effective: string;
  status: 'Open' | 'Completed' | 'Cancelled';
  items: ModelItem[];
}
interface ModelChange {
  id: number;
  day: string;
  department: number;
  status: 'Scheduled' | 'Effective' | 'Cancelled';
}
interface ModelEmployee {
  id: number;
  user: TestUser;
  joined: string;
  department: number;
  termination: string | null;
  terminated: boolean;
  changes: ModelChange[];
}

describe('lifecycle checklists: random sequences against a model (issue 67)', () => {
  let t: TestApp;
  let c: Company;
  let ok: ReturnType<typeof okCaller>;
  let call: ReturnType<typeof apiCaller>;
  let admin: string;
  let clock: CompanyClock;

  beforeAll(async () => {
    t = await createTestApp({ OUTBOX_RELAY_MS: '600000', TOKEN_CACHE_MS: '5000' });
    c = await buildCompany(t.app);
    ok = okCaller(t.app);
    call = apiCaller(t.app);
    admin = c.users.admin.token;
    clock = t.app.get(CompanyClock);
  });
  afterAll(() => {
    clock.moveTo(null);
    return t.close();
  });

  it(`${SEQUENCES} sequences: checklists, due dates, statuses and sign-in equal the model's after every step`, async () => {
    const departments = [c.departments.engineering, c.departments.sales];
    let steps = 0;
    let started = 0;
    /** What the steps did (printed: the sequences reach every path). */
    const did = new Map<string, number>();
    for (let seq = 0; seq < SEQUENCES; seq++) {
      const r = rng(20261204 + seq);
      let today = addDays(new Date().toISOString().slice(0, 10), 30 * seq);
      clock.moveTo(new Date(`${today}T12:00:00Z`));
      const templates: ModelTemplate[] = [];
      for (let k = 0, n = r.int(2, 5); k < n; k++) {
        const trigger = r.pick(TRIGGERS);
        const department = r.chance(0.5) ? r.pick(departments) : null;
        const items = Array.from({ length: r.int(1, 3) }, () => ({ offset: r.int(-10, 15), required: r.chance(0.8) }));
        const made = await ok('POST', '/checklist-templates', admin, {
          name: `Model ${seq}.${k}`,
          trigger,
          conditions: department === null ? {} : { departments: [department] },
          items: items.map((item, i) => ({
            title: `Item ${i}`,
            assignee: 'admins',
            offset_days: item.offset,
            required: item.required,
          })),
        });
        templates.push({ id: made.id as number, trigger, department, items });
      }
      const employees: ModelEmployee[] = [];
      const model: ModelChecklist[] = [];

      const start = (e: ModelEmployee, trigger: ModelTemplate['trigger'], origin: string, effective: string, dept: number) => {
        for (const tpl of templates) {
          if (tpl.trigger !== trigger || (tpl.department !== null && tpl.department !== dept)) continue;
          if (model.some((m) => m.template === tpl.id && m.employee === e.id && m.origin === origin)) continue;
          // Over before it starts: every item already past due.
          if (tpl.items.every((i) => addDays(effective, i.offset) < today)) continue;
          model.push({
            template: tpl.id,
            employee: e.id,
            trigger,
            origin,
            effective,
            status: 'Open',
            items: tpl.items.map((i) => ({ ...i, due: addDays(effective, i.offset), status: 'Open' })),
          });
          started++;
        }
      };
      const openOf = (e: ModelEmployee, origin: string) =>
        model.filter((m) => m.employee === e.id && m.origin === origin && m.status === 'Open');
      const move = (e: ModelEmployee, origin: string, effective: string, to = origin) => {
        const lists = openOf(e, origin);
        for (const m of lists) {
          m.origin = to;
          m.effective = effective;
          for (const i of m.items) i.due = addDays(effective, i.offset);
        }
        return lists.length;
      };
      const cancel = (e: ModelEmployee, origin: string) => {
        for (const m of openOf(e, origin)) {
          m.status = 'Cancelled';
          for (const i of m.items) if (i.status === 'Open') i.status = 'Cancelled';
        }
      };
      /** The department of the employee's row: its latest change in force by today, else the one it joined with. */
      const departmentNow = (e: ModelEmployee) => {
        const inForce = e.changes
          .filter((x) => x.status !== 'Cancelled' && x.day <= today)
          .sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : a.id - b.id));
        return inForce.length ? inForce[inForce.length - 1].department : e.department;
      };
      /** Days pass: scheduled changes take effect, terminations due too (the leaver's onboarding cancelled). */
      const runJob = async () => {
        await t.app.get(EmploymentHistoryJobs).run(clock.now());
        for (const e of employees) {
          for (const x of e.changes) if (x.status === 'Scheduled' && x.day <= today) x.status = 'Effective';
          if (!e.terminated && e.termination !== null && e.termination <= today) {
            e.terminated = true;
            cancel(e, 'hire');
          }
        }
      };

      const check = async (what: string) => {
        await t.app.get(OutboxRelay).drain();
        for (const e of employees) {
          const got = (await ok('GET', `/checklists?employee=${e.id}&limit=100&sortField=id&sortOrder=ascend`, admin)) as Array<{
            template: number;
            trigger: string;
            effective_date: string;
            status: string;
            items: Array<{ due_date: string; status: string }>;
          }>;
          const want = model.filter((m) => m.employee === e.id);
          const view = (x: {
            template: number;
            trigger: string;
            effective: string;
            status: string;
            items: Array<{ due: string; status: string }>;
          }) => ({
            template: x.template,
            trigger: x.trigger,
            effective: x.effective,
            status: x.status,
            items: x.items.map((i) => [i.due, i.status]),
          });
          expect({
            seq,
            what,
            employee: e.id,
            lists: got.map((g) =>
              view({ ...g, effective: g.effective_date, items: g.items.map((i) => ({ due: i.due_date, status: i.status })) }),
            ),
          }).toEqual({
            seq,
            what,
            employee: e.id,
            lists: want.map(view),
          });
          const me = await call('GET', '/employees/me', e.user.token);
          const mayUse = !(e.termination !== null && e.termination <= today);
          expect({ seq, what, employee: e.id, status: me.statusCode }).toEqual({
            seq,
            what,
            employee: e.id,
            status: mayUse ? 200 : 401,
          });
        }
      };

      for (let step = 0; step < STEPS; step++) {
        steps++;
        const live = employees.filter((e) => !e.terminated);
        const op = !employees.length
          ? 'hire'
          : r.pick([
              'hire',
              'transfer',
              'correct',
              'cancel',
              'terminate',
              'untermi',
              'complete',
              'complete',
              'days',
              'days',
            ] as const);
        const e = live.length ? r.pick(live) : null;
        if (op === 'hire' || !e) {
          const department = r.pick(departments);
          const joined = addDays(today, r.int(-20, 20));
          const id = (await ok('POST', '/employees', admin, employeeBody({ department, joined_date: joined }))).id as number;
          const made: ModelEmployee = {
            id,
            user: await createUser(t.app, 'Employee', { employeeId: id }),
            joined,
            department,
            termination: null,
            terminated: false,
            changes: [],
          };
          employees.push(made);
          start(made, 'hire', 'hire', joined, department);
        } else if (op === 'transfer') {
          const department = departmentNow(e) === departments[0] ? departments[1] : departments[0];
          const day = addDays(today, r.int(-3, 25));
          const res = await call('POST', `/employees/${e.id}/changes`, admin, { effective_date: day, fields: { department } });
          if (res.statusCode === 200) {
            const id = res.json().data.id as number;
            e.changes.push({ id, day, department, status: day <= today ? 'Effective' : 'Scheduled' });
            start(e, 'transfer', `change:${id}`, day, department);
          }
        } else if (op === 'correct' || op === 'cancel') {
          const scheduled = e.changes.filter((x) => x.status === 'Scheduled');
          if (!scheduled.length) continue;
          const x = r.pick(scheduled);
          if (op === 'cancel') {
            const res = await call('DELETE', `/employees/${e.id}/changes/${x.id}`, admin);
            if (res.statusCode === 200) {
              x.status = 'Cancelled';
              cancel(e, `change:${x.id}`);
            }
          } else {
            const day = addDays(today, r.int(1, 25));
            const res = await call('POST', `/employees/${e.id}/changes/${x.id}/correct`, admin, {
              effective_date: day,
              reason: 'model',
            });
            if (res.statusCode === 200) {
              const id = res.json().data.id as number;
              x.status = 'Cancelled';
              e.changes.push({ id, day, department: x.department, status: 'Scheduled' });
              if (!move(e, `change:${x.id}`, day, `change:${id}`)) start(e, 'transfer', `change:${id}`, day, x.department);
            }
          }
        } else if (op === 'terminate') {
          const day = addDays(today, r.int(1, 30));
          const res = await call('PUT', `/employees/${e.id}`, admin, { termination_date: day });
          if (res.statusCode === 200) {
            const before = e.termination;
            e.termination = day;
            if (before === null) start(e, 'termination', 'termination', day, departmentNow(e));
            else if (before !== day) move(e, 'termination', day);
          }
        } else if (op === 'untermi') {
          if (e.termination === null) continue;
          const res = await call('PUT', `/employees/${e.id}`, admin, { termination_date: null });
          if (res.statusCode === 200) {
            e.termination = null;
            cancel(e, 'termination');
          }
        } else if (op === 'complete') {
          // The employee's checklists in the order they started, as the model keeps them (check() holds them equal).
          const got = (await ok('GET', `/checklists?employee=${e.id}&limit=100&sortField=id&sortOrder=ascend`, admin)) as Array<{
            id: number;
            items: Array<{ id: number; status: string }>;
          }>;
          const open = got.flatMap((g, p) =>
            g.items.flatMap((i, k) => (i.status === 'Open' ? [{ list: g.id, item: i.id, p, k }] : [])),
          );
          if (!open.length) continue;
          const pick = r.pick(open);
          await ok('POST', `/checklists/${pick.list}/items/${pick.item}/complete`, admin);
          const m = model.filter((x) => x.employee === e.id)[pick.p];
          m.items[pick.k].status = 'Completed';
          if (m.status === 'Open' && done(m.items)) m.status = 'Completed';
        } else {
          today = addDays(today, r.int(1, 9));
          clock.moveTo(new Date(`${today}T00:00:30Z`));
        }
        did.set(op, (did.get(op) ?? 0) + 1);
        await runJob();
        await check(`step ${step}: ${op}`);
      }
      for (const tpl of templates) await ok('DELETE', `/checklist-templates/${tpl.id}`, admin);
    }
    console.log(
      `checklist sequences: ${SEQUENCES}, steps: ${steps}, checklists started: ${started}, steps by kind: ${JSON.stringify(Object.fromEntries(did))}`,
    );
    expect(started).toBeGreaterThan(0);
  }, 900_000); // 300 sequences in .ci/run
});
