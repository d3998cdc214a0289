import { DataSource } from 'typeorm';
import { EmployeesService } from '../src/employees/employees.service';
import { ReferenceService } from '../src/reference/reference.service';
import { employeeBody } from './helpers/company';
import { rng } from './helpers/random';
import { apiCaller, createTestApp, createUser, INTEGRATION, TestApp, TestUser } from './helpers/test-app';

/**
 * Approval chains against a reference model (issue 45): random policies, absences, delegations,
 * decisions (some two at once on one step) and cancellations over leave requests; after every
 * action the request's status, its chain's steps and decisions, and the ledger's taken days
 * match a model written here from docs/api/decisions.md §21, independently of src/approvals/approval-chain.ts.
 * `APPROVAL_SEQUENCES` sets how many: 25 in npm test (a newcomer's command, within 4 minutes),
 * 50 on MariaDB (test:integration), 1 000 in `npm run test:approvals`, a .ci/run step.
 */
const SEQUENCES = Number(process.env.APPROVAL_SEQUENCES ?? (INTEGRATION ? 50 : 25));
const ROLES = ['supervisor', 'approver1', 'approver2', 'approver3', 'department_head', 'admins'];

interface MStep {
  mode: 'any' | 'all';
  approvers: number[];
  admins: boolean;
  opened: boolean;
}
interface MDecision {
  step: number;
  user: number;
  employee: number | null;
  decision: 'approve' | 'reject';
}
interface MRequest {
  id: number;
  subject: Subject;
  days: number;
  status: 'Pending' | 'Approved' | 'Rejected' | 'Cancelled';
  current: number;
  steps: MStep[];
  decisions: MDecision[];
}
interface Subject {
  id: number;
  department: number;
  supervisor: number | null;
  approvers: Array<number | null>;
}
interface MPolicy {
  id: number;
  leave_types?: number[];
  min_days?: number;
  departments?: number[];
  steps: Array<{ approvers: string[]; mode: 'any' | 'all' }>;
}

describe('approval chains: random sequences against a model (issue 45)', () => {
  let t: TestApp;
  let call: ReturnType<typeof apiCaller>;
  let admin: TestUser;
  const pool: Array<{ id: number; user: TestUser }> = [];
  const subjects: Subject[] = [];
  let departments: { root: number; child: number; other: number };
  const heads = new Map<number, number | null>();
  const parents = new Map<number, number | null>();
  let types: number[];
  const today = new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    t = await createTestApp({ OUTBOX_RELAY_MS: '600000' });
    call = apiCaller(t.app);
    admin = await createUser(t.app, 'Admin');
    const ref = t.app.get(ReferenceService);
    const root = await ref.addDepartment('Chains root', null);
    const child = await ref.addDepartment('Chains child', root);
    const other = await ref.addDepartment('Chains other', null);
    departments = { root, child, other };
    const employees = t.app.get(EmployeesService);
    for (let i = 0; i < 5; i++) {
      const id = (await employees.create(employeeBody({ department: other }))).id;
      pool.push({ id, user: await createUser(t.app, 'Manager', { employeeId: id }) });
    }
    parents.set(root, null).set(child, root).set(other, null);
    heads.set(root, pool[0].id).set(child, null).set(other, pool[1].id);
    for (const [d, h] of heads) if (h !== null) await ok('PUT', `/departments/${d}`, { head: h });
    const r = rng(7);
    for (let i = 0; i < 10; i++) {
      const some = () => (r.chance(0.6) ? r.pick(pool).id : null);
      const s = { department: r.pick([root, child, other]), supervisor: some(), approvers: [some(), some(), some()] };
      const id = (
        await employees.create(
          employeeBody({
            department: s.department,
            supervisor: s.supervisor ?? undefined,
            approver1: s.approvers[0] ?? undefined,
            approver2: s.approvers[1] ?? undefined,
            approver3: s.approvers[2] ?? undefined,
          }),
        )
      ).id;
      subjects.push({ id, ...s });
    }
    for (let y = 2040; y <= 2070; y++)
      await ok('POST', '/leave-periods', { name: `${y}`, date_start: `${y}-01-01`, date_end: `${y}-12-31` });
    types = [
      (await ok('POST', '/leave-types', { name: 'Chain A', default_days: 200 })).id as number,
      (await ok('POST', '/leave-types', { name: 'Chain B', default_days: 200 })).id as number,
    ];
  });
  afterAll(() => t.close());

  async function ok(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: object, token = admin.token) {
    const res = await call(method, url, token, body);
    if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  }

  // The model (docs/api/decisions.md §21).
  const ancestors = (d: number | null) => {
    const out: number[] = [];
    for (let at = d; at !== null && at !== undefined; at = parents.get(at) ?? null) out.push(at);
    return out;
  };
  const headFor = (s: Subject) =>
    ancestors(s.department)
      .map((d) => heads.get(d) ?? null)
      .find((h) => h !== null && h !== s.id) ?? null;
  const applies = (policies: MPolicy[], s: Subject, type: number, days: number) => {
    let best: MPolicy | null = null;
    let score = -1;
    for (const p of policies) {
      let n = 0;
      if (p.leave_types) {
        if (!p.leave_types.includes(type)) continue;
        n++;
      }
      if (p.min_days !== undefined) {
        if (days < p.min_days) continue;
        n++;
      }
      if (p.departments) {
        if (!p.departments.some((d) => ancestors(s.department).includes(d))) continue;
        n++;
      }
      if (n > score) [best, score] = [p, n];
    }
    return best;
  };
  const stepsFor = (p: MPolicy | null, s: Subject): MStep[] =>
    (p?.steps ?? [{ approvers: ['supervisor', 'approver1', 'approver2', 'approver3'], mode: 'any' as const }]).map((st) => {
      const ids: number[] = [];
      for (const role of st.approvers) {
        const id =
          role === 'supervisor'
            ? s.supervisor
            : role.startsWith('approver')
              ? s.approvers[Number(role.slice(8)) - 1]
              : role === 'department_head'
                ? headFor(s)
                : role.startsWith('employee:')
                  ? Number(role.slice(9))
                  : null;
        if (id !== null && id !== s.id && !ids.includes(id)) ids.push(id);
      }
      return { mode: st.mode, approvers: ids, admins: st.approvers.includes('admins'), opened: false };
    });
  const open = (req: MRequest, away: Set<number>, delegations: Map<number, number>) => {
    const step = req.steps[req.current - 1];
    const earlier = new Set(req.decisions.map((d) => d.employee));
    const out: number[] = [];
    for (const a of step.approvers) {
      const to = delegations.get(a);
      if (to !== undefined && to !== req.subject.id && !earlier.has(to)) {
        if (!out.includes(to)) out.push(to);
      } else if (to === undefined && !away.has(a) && !earlier.has(a) && !out.includes(a)) out.push(a);
    }
    req.steps[req.current - 1] = { ...step, approvers: out, admins: step.admins || !out.length, opened: true };
  };
  /** What a decision answers: an error code, or the request's status after it. */
  const decideModel = (
    req: MRequest,
    who: { user: number; employee: number | null; admin: boolean },
    decision: 'approve' | 'reject',
    away: Set<number>,
    delegations: Map<number, number>,
  ) => {
    const s = req.subject;
    const visible =
      who.admin ||
      (who.employee !== null &&
        ([s.supervisor, ...s.approvers].includes(who.employee) || req.steps.some((st) => st.approvers.includes(who.employee!))));
    if (!visible) return 'NOT_FOUND';
    if (req.status !== 'Pending') return 'INVALID_STATE';
    if (req.decisions.some((d) => d.user === who.user)) return 'ALREADY_DECIDED';
    const step = req.steps[req.current - 1];
    const inStep = who.employee !== null && step.approvers.includes(who.employee);
    const approver = inStep || (step.admins && who.admin);
    if (!approver && !who.admin) return 'NOT_AN_APPROVER';
    req.decisions.push({ step: req.current, user: who.user, employee: who.employee, decision });
    if (decision === 'reject') return (req.status = 'Rejected');
    const approvedBy = new Set(
      req.decisions.filter((d) => d.step === req.current && d.decision === 'approve').map((d) => d.employee),
    );
    const complete = step.mode === 'any' || !inStep || step.approvers.every((a) => approvedBy.has(a));
    if (!complete) return req.status;
    if (req.current === req.steps.length) return (req.status = 'Approved');
    req.current++;
    open(req, away, delegations);
    return req.status;
  };

  it(
    `${SEQUENCES} sequences: status, steps, decisions and the ledger follow the model`,
    async () => {
      const ds = t.app.get(DataSource);
      const problems: string[] = [];
      const taken = new Map<number, number>();
      for (let seq = 0; seq < SEQUENCES && problems.length < 5; seq++) {
        // Seeds spread over the range, and a few draws dropped: xorshift's first draws from a small seed are small.
        const r = rng(((seq + 1) * 2_654_435_761) % 4_294_967_296);
        for (let i = 0; i < 4; i++) r.next();
        const where = `seq ${seq}`;
        // Policies of this sequence.
        const policies: MPolicy[] = [];
        for (let n = r.int(0, 2); n > 0; n--) {
          const conditions = {
            ...(r.chance(0.3) ? { leave_types: [r.pick(types)] } : {}),
            ...(r.chance(0.4) ? { min_days: r.int(1, 5) } : {}),
            ...(r.chance(0.3) ? { departments: [r.pick(Object.values(departments))] } : {}),
          };
          const steps = Array.from({ length: r.int(1, 3) }, () => ({
            approvers: [
              ...new Set(
                Array.from({ length: r.int(1, 3) }, () => (r.chance(0.2) ? `employee:${r.pick(pool).id}` : r.pick(ROLES))),
              ),
            ],
            mode: r.pick(['any', 'all'] as const),
          }));
          const id = (await ok('POST', '/approval-policies', { name: `P${seq}`, applies_to: 'leave', conditions, steps }))
            .id as number;
          policies.push({ id, ...conditions, steps });
        }
        // Absences and delegations of today.
        const away = new Set(pool.filter(() => r.chance(0.15)).map((p) => p.id));
        for (const id of away)
          await ds.query(
            "INSERT INTO leave_requests (employee_id, leave_type_id, date_start, date_end, half_day, days, status, created_at, updated_at) VALUES (?, ?, ?, ?, 0, 1, 'Approved', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)",
            [id, types[0], today, today],
          );
        const delegations = new Map<number, number>();
        for (const p of pool)
          if (r.chance(0.15)) {
            const to = r.pick(pool.filter((q) => q.id !== p.id)).id;
            // One that leads back to its delegator through today's delegations is a cycle: refused.
            let hop: number | undefined = to;
            for (let n = 0; hop !== undefined && hop !== p.id && n < pool.length; n++) hop = delegations.get(hop);
            const body = { delegator: p.id, delegate: to, date_start: today, date_end: today };
            if (hop === p.id) {
              const refused = await call('POST', '/approval-delegations', admin.token, body);
              if (refused.statusCode !== 400) throw new Error(`a cycle through ${to} back to ${p.id}: ${refused.statusCode}`);
              continue;
            }
            await ok('POST', '/approval-delegations', body);
            delegations.set(p.id, to);
          }
        // One request.
        const subject = r.pick(subjects);
        const type = r.pick(types);
        const year = 2040 + (seq % 30);
        const week = Math.floor(seq / 30) % 50;
        const start = new Date(Date.UTC(year, 0, 1 + 7 * week));
        while (start.getUTCDay() !== 1) start.setUTCDate(start.getUTCDate() + 1);
        const length = r.int(1, 5);
        const end = new Date(start.getTime() + (length - 1) * 86_400_000);
        const created = await ok('POST', '/leaves', {
          employee: subject.id,
          leave_type: type,
          date_start: start.toISOString().slice(0, 10),
          date_end: end.toISOString().slice(0, 10),
        });
        const req: MRequest = {
          id: created.id,
          subject,
          days: created.days,
          status: 'Pending',
          current: 1,
          steps: stepsFor(applies(policies, subject, type, created.days), subject),
          decisions: [],
        };
        open(req, away, delegations);
        const check = async (what: string) => {
          const got = await ok('GET', `/leaves/${req.id}`);
          const mine = {
            status: req.status,
            current: req.current,
            steps: req.steps.map((s) => (s.opened ? [s.mode, s.approvers, s.admins] : [s.mode, 'not open'])),
            decisions: req.decisions.map((d) => [d.step, d.user, d.decision]),
          };
          const theirs = {
            status: got.status === 'Pending' ? got.approval.status : got.status,
            current: got.approval.current_step,
            steps: got.approval.steps.map(
              (s: { mode: string; approvers: number[]; admins: boolean; opened_at: string | null }) =>
                s.opened_at ? [s.mode, s.approvers, s.admins] : [s.mode, 'not open'],
            ),
            decisions: got.approval.steps.flatMap((s: { step: number; decisions: Array<{ user: number; decision: string }> }) =>
              s.decisions.map((d) => [s.step, d.user, d.decision]),
            ),
          };
          if (JSON.stringify(mine) !== JSON.stringify(theirs))
            problems.push(`${where} after ${what}: model ${JSON.stringify(mine)}, service ${JSON.stringify(theirs)}`);
        };
        await check('create');
        const actors = [
          { user: admin.user.id, employee: null, admin: true, token: admin.token },
          ...pool.map((p) => ({ user: p.user.user.id, employee: p.id, admin: false, token: p.user.token })),
        ];
        for (let op = r.int(2, 6); op > 0 && problems.length < 5; op--) {
          const roll = r.next();
          if (roll < 0.1) {
            const res = await call('POST', `/leaves/${req.id}/cancel`, admin.token);
            const expected = req.status === 'Pending' || req.status === 'Approved' ? 200 : 409;
            if (res.statusCode !== expected) problems.push(`${where} cancel: ${res.statusCode}, model ${expected}`);
            if (expected === 200) req.status = 'Cancelled';
            await check('cancel');
            continue;
          }
          // Mostly someone who decides the open step; sometimes anyone; sometimes two of them at once.
          const step = req.steps[req.current - 1];
          const deciders = actors.filter(
            (a) => (a.employee !== null && step.approvers.includes(a.employee)) || (a.admin && step.admins),
          );
          const pickActor = () => (deciders.length && r.chance(0.7) ? r.pick(deciders) : r.pick(actors));
          const decision = () => (r.chance(0.8) ? ('approve' as const) : ('reject' as const));
          if (roll < 0.25 && deciders.length > 1 && step.mode === 'any' && req.status === 'Pending') {
            const [a, b] = [r.pick(deciders), r.pick(deciders)];
            if (a === b) continue;
            const [da, db] = [decision(), decision()];
            const answers = await Promise.all([
              call('POST', `/leaves/${req.id}/${da}`, a.token),
              call('POST', `/leaves/${req.id}/${db}`, b.token),
            ]);
            // Either order, serialised: the second decides after the first (its own answer), or it raced it and lost (409).
            const outcome = (res: (typeof answers)[number]) =>
              res.statusCode === 200 ? (res.json().data.status as string) : (res.json().error.code as string);
            const got = answers.map(outcome);
            const orders = [
              [0, 1],
              [1, 0],
            ].map(([x, y]) => {
              const model = structuredClone(req);
              const actor = [a, b];
              const verb = [da, db];
              const first = decideModel(model, actor[x], verb[x], away, delegations);
              const second = decideModel(structuredClone(model), actor[y], verb[y], away, delegations);
              return { x, y, first, second, model, actor, verb };
            });
            const fit = orders.find(
              (o) =>
                got[o.x] === o.first &&
                (got[o.y] === o.second || (got[o.y] === 'INVALID_STATE' && answers[o.y].statusCode === 409)),
            );
            if (!fit) {
              problems.push(
                `${where} race: ${got.join(', ')}, model ${orders.map((o) => `${o.first}/${o.second}`).join(' or ')}`,
              );
              continue;
            }
            Object.assign(req, fit.model);
            if (answers[fit.y].statusCode === 200) decideModel(req, fit.actor[fit.y], fit.verb[fit.y], away, delegations);
            await check('race');
            continue;
          }
          const who = pickActor();
          const what = decision();
          const before = JSON.stringify(req);
          const expected = decideModel(req, who, what, away, delegations);
          const res = await call('POST', `/leaves/${req.id}/${what}`, who.token);
          const got =
            res.statusCode === 200
              ? res.json().data.status === 'Pending'
                ? 'Pending'
                : res.json().data.status
              : res.json().error.code;
          if (got !== expected)
            problems.push(`${where} ${who.employee ?? 'admin'} ${what}: ${got}, model ${expected} (${before})`);
          await check(`${what} by ${who.employee ?? 'admin'}`);
        }
        if (req.status === 'Approved') taken.set(subject.id, (taken.get(subject.id) ?? 0) + req.days);
        // The ledger: what the subject's approved requests took.
        const ledger = (await ok('GET', `/employees/${subject.id}/leave-ledger?limit=500`)) as Array<{
          kind: string;
          days: number;
        }>;
        const net = Math.abs(
          ledger.filter((x) => x.kind === 'taken' || x.kind === 'reversal').reduce((sum, x) => sum + x.days, 0),
        );
        if (Math.round(net * 100) !== Math.round((taken.get(subject.id) ?? 0) * 100))
          problems.push(`${where} ledger: taken ${net}, model ${taken.get(subject.id) ?? 0}`);
        // Clean up the sequence's policies, absences and delegations.
        for (const p of policies) await ok('DELETE', `/approval-policies/${p.id}`);
        await ds.query(
          'DELETE FROM leave_requests WHERE date_start = ? AND date_end = ? AND employee_id IN (' +
            pool.map((p) => p.id).join(',') +
            ')',
          [today, today],
        );
        await ds.query('DELETE FROM approval_delegations');
      }
      expect(problems).toEqual([]);
    },
    Math.max(300_000, SEQUENCES * 900),
  ); // 1 000 took 353 s beside six other CI steps
});
