import { ApprovalInboxService } from '../src/approvals/approval-inbox.service';
import { OutboxRelay } from '../src/common/outbox/outbox-relay';
import { EmployeesService } from '../src/employees/employees.service';
import { buildCompany, Company, employeeBody } from './helpers/company';
import { apiCaller, createTestApp, createUser, outboxEvents, TestApp, TestUser } from './helpers/test-app';

/** Approval chains (issue 45, docs/api/decisions.md §21) over leave requests and time entries. */
describe('approval chains', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let admin: string;
  let annual: number;
  let head: { id: number; user: TestUser };
  let twoStep: number;
  const today = new Date().toISOString().slice(0, 10);
  const year = Number(today.slice(0, 4));
  /** A Monday to Friday week of next year, n weeks in (5 working days). */
  const week = (n: number) => {
    const jan = new Date(Date.UTC(year + 1, 0, 1));
    const monday = new Date(jan.getTime() + (((8 - jan.getUTCDay()) % 7) + 7 * n) * 86_400_000);
    return [monday.toISOString().slice(0, 10), new Date(monday.getTime() + 4 * 86_400_000).toISOString().slice(0, 10)];
  };
  const data = async (res: Promise<{ statusCode: number; body: string; json: () => { data: unknown } }>) => {
    const r = await res;
    if (r.statusCode !== 200) throw new Error(`${r.statusCode} ${r.body}`);
    return r.json().data as Record<string, any>;
  };
  const request = (token: string, n: number, days = 5) => {
    const [start, end] = week(n);
    return data(
      call('POST', '/leaves', token, {
        leave_type: annual,
        date_start: start,
        date_end: days === 5 ? end : start,
      }),
    );
  };
  const inbox = async (token: string) =>
    (
      (await call('GET', '/approvals/pending?limit=500', token)).json().data as Array<{ kind: string; id: number; step: number }>
    ).map((x) => `${x.kind}:${x.id}:${x.step}`);

  beforeAll(async () => {
    t = await createTestApp({ OUTBOX_RELAY_MS: '600000' });
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    admin = c.users.admin.token;
    for (const y of [year, year + 1])
      await data(call('POST', '/leave-periods', admin, { name: `${y}`, date_start: `${y}-01-01`, date_end: `${y}-12-31` }));
    annual = (await data(call('POST', '/leave-types', admin, { name: 'Annual', default_days: 60 }))).id as number;
    const headId = (await t.app.get(EmployeesService).create(employeeBody({ department: c.departments.company }))).id;
    head = { id: headId, user: await createUser(t.app, 'Manager', { employeeId: headId }) };
    // The head of the company; Platform (report1's) has none: the nearest parent's counts.
    await data(call('PUT', `/departments/${c.departments.company}`, admin, { head: headId }));
    twoStep = (
      await data(
        call('POST', '/approval-policies', admin, {
          name: 'Long leave',
          applies_to: 'leave',
          conditions: { min_days: 5 },
          steps: [
            { approvers: ['supervisor'], mode: 'any' },
            { approvers: ['department_head'], mode: 'any' },
          ],
        }),
      )
    ).id as number;
  });
  afterAll(() => t.close());

  it('without a policy: one step, any of the supervisor and approver1..3, as before', async () => {
    const leave = await request(c.users.employee.token, 1, 1);
    expect(leave.approval).toMatchObject({
      policy: null,
      status: 'Pending',
      current_step: 1,
      steps: [{ step: 1, mode: 'any', approvers: [c.emp.manager], admins: false, decisions: [] }],
    });
    const approved = await data(call('POST', `/leaves/${leave.id}/approve`, c.users.manager.token, { comment: 'enjoy' }));
    expect(approved.status).toBe('Approved');
    expect(approved.approval.steps[0].decisions).toEqual([
      {
        by: c.emp.manager,
        user: c.users.manager.user.id,
        decision: 'approve',
        at: expect.any(String),
        comment: 'enjoy',
        as_admin: false,
      },
    ]);
  });

  it('two steps: the supervisor, then the department head; each decides its own step once; the inbox follows the open step', async () => {
    const leave = await request(c.users.employee.token, 2);
    expect(leave.approval).toMatchObject({
      policy: twoStep,
      current_step: 1,
      steps: [
        { step: 1, approvers: [c.emp.manager], opened_at: expect.any(String) },
        { step: 2, approvers: [head.id], opened_at: null },
      ],
    });
    expect(await inbox(c.users.manager.token)).toContain(`leave:${leave.id}:1`);
    expect(await inbox(head.user.token)).not.toContain(`leave:${leave.id}:1`);
    // The head sees the request it will decide, but not its step yet.
    const early = await call('POST', `/leaves/${leave.id}/approve`, head.user.token);
    expect([early.statusCode, early.json().error.code]).toEqual([403, 'NOT_AN_APPROVER']);
    // Someone who cannot see the request at all: 404.
    expect((await call('POST', `/leaves/${leave.id}/approve`, (await createUser(t.app, 'Employee')).token)).statusCode).toBe(404);

    const first = await data(call('POST', `/leaves/${leave.id}/approve`, c.users.manager.token));
    expect(first).toMatchObject({ status: 'Pending', approval: { current_step: 2 } });
    expect(first.approval.steps[1].opened_at).toEqual(expect.any(String));
    expect(await inbox(c.users.manager.token)).not.toContain(`leave:${leave.id}:1`);
    expect(await inbox(head.user.token)).toContain(`leave:${leave.id}:2`);
    const again = await call('POST', `/leaves/${leave.id}/approve`, c.users.manager.token);
    expect([again.statusCode, again.json().error.code]).toEqual([409, 'ALREADY_DECIDED']);
    const events = (await outboxEvents(t.app, 'approval.step_decided')).filter((e) => (e.data as { id: number }).id === leave.id);
    expect(events.map((e) => e.data)).toEqual([
      expect.objectContaining({
        kind: 'leave',
        step: 1,
        decision: 'approve',
        by: c.emp.manager,
        status: 'Pending',
        next_step: 2,
      }),
    ]);
    // Nothing was taken yet: the days are still pending.
    const last = await data(call('POST', `/leaves/${leave.id}/approve`, head.user.token));
    expect(last).toMatchObject({ status: 'Approved', approver: head.id, approval: { status: 'Approved', current_step: 2 } });
    expect(await inbox(head.user.token)).not.toContain(`leave:${leave.id}:2`);
    const ledger = (await call('GET', `/employees/${c.emp.report1}/leave-ledger?limit=500`, admin)).json().data as Array<{
      kind: string;
      days: number;
    }>;
    expect(ledger.filter((x) => x.kind === 'taken').length).toBeGreaterThan(0);
  });

  it('a rejection at any step rejects the request; a cancelled request takes no decision', async () => {
    const rejected = await request(c.users.employee.token, 3);
    await data(call('POST', `/leaves/${rejected.id}/approve`, c.users.manager.token));
    const no = await data(call('POST', `/leaves/${rejected.id}/reject`, head.user.token, { comment: 'busy month' }));
    expect(no).toMatchObject({ status: 'Rejected', approval: { status: 'Rejected' } });
    expect(no.approval.steps[1].decisions[0]).toMatchObject({ by: head.id, decision: 'reject', comment: 'busy month' });

    const cancelled = await request(c.users.employee.token, 4);
    await data(call('POST', `/leaves/${cancelled.id}/cancel`, c.users.employee.token));
    const late = await call('POST', `/leaves/${cancelled.id}/approve`, c.users.manager.token);
    expect([late.statusCode, late.json().error.code]).toEqual([409, 'INVALID_STATE']);
    expect(await inbox(c.users.manager.token)).not.toContain(`leave:${cancelled.id}:1`);
  });

  it('an Admin decides any step, recorded as such; two decisions racing on one step settle once', async () => {
    const leave = await request(c.users.employee.token, 5);
    const byAdmin = await data(call('POST', `/leaves/${leave.id}/approve`, admin));
    expect(byAdmin.approval.steps[0].decisions[0]).toMatchObject({ by: null, as_admin: true });
    expect(byAdmin.approval.current_step).toBe(2);

    // A step any of two decides: both at once, one wins.
    const both = (
      await data(
        call('POST', '/approval-policies', admin, {
          name: 'Two deciders',
          applies_to: 'leave',
          conditions: { min_days: 1, departments: [c.departments.platform] },
          steps: [{ approvers: ['supervisor', `employee:${head.id}`], mode: 'any' }],
        }),
      )
    ).id as number;
    const raced = await request(c.users.employee.token, 6, 1);
    expect(raced.approval.policy).toBe(both);
    const answers = await Promise.all([
      call('POST', `/leaves/${raced.id}/approve`, c.users.manager.token),
      call('POST', `/leaves/${raced.id}/reject`, head.user.token),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const after = await data(call('GET', `/leaves/${raced.id}`, admin));
    expect(after.approval.steps[0].decisions).toHaveLength(1);
    await data(call('DELETE', `/approval-policies/${both}`, admin));
  });

  it('a policy sets the conditions its kind declares: others are 400 naming them (time: departments only)', async () => {
    const refused = async (applies_to: string, conditions: object) => {
      const res = await call('POST', '/approval-policies', admin, {
        name: 'Refused',
        applies_to,
        conditions,
        steps: [{ approvers: ['supervisor'], mode: 'any' }],
      });
      expect(res.statusCode).toBe(400);
      return (res.json().error.details as Array<{ field: string }>).map((d) => d.field);
    };
    expect(await refused('time', { min_days: 2, leave_types: [annual] })).toEqual([
      'conditions.leave_types',
      'conditions.min_days',
    ]);
    expect(await refused('leave', { min_amount: '100.00' })).toEqual(['conditions.min_amount']);
    expect(await refused('leave', { min_amount: '1.234' })).toEqual(['conditions.min_amount']);
  });

  it('mode all: every approver approves before the step completes', async () => {
    const all = (
      await data(
        call('POST', '/approval-policies', admin, {
          name: 'Both of them',
          applies_to: 'time',
          steps: [{ approvers: ['supervisor', `employee:${head.id}`], mode: 'all' }],
        }),
      )
    ).id as number;
    const entry = await data(
      call('POST', '/timesheets', c.users.employee.token, { date: week(7)[0], start: '09:00', end: '12:00' }),
    );
    expect(entry.approval).toBeNull();
    const submitted = await data(call('POST', `/timesheets/${entry.id}/submit`, c.users.employee.token));
    expect(submitted.approval).toMatchObject({ policy: all, steps: [{ mode: 'all', approvers: [c.emp.manager, head.id] }] });
    expect(await inbox(head.user.token)).toContain(`time:${entry.id}:1`);
    const one = await data(call('POST', `/timesheets/${entry.id}/approve`, c.users.manager.token));
    expect(one.status).toBe('Submitted');
    expect(await inbox(c.users.manager.token)).not.toContain(`time:${entry.id}:1`);
    const two = await data(call('POST', `/timesheets/${entry.id}/approve`, head.user.token));
    expect(two).toMatchObject({ status: 'Approved', approval: { status: 'Approved' } });
    await data(call('DELETE', `/approval-policies/${all}`, admin));
  });

  it('a delegation replaces the approver; an approver away without one is skipped, the Admins decide when nobody is left', async () => {
    const bad = await call('POST', '/approval-delegations', c.users.manager.token, {
      delegate: c.emp.manager,
      date_start: today,
      date_end: today,
    });
    expect(bad.json().error.details).toEqual([{ field: 'delegate', message: 'must be someone else than the delegator' }]);
    const delegation = await data(
      call('POST', '/approval-delegations', c.users.manager.token, {
        delegate: c.emp.report2,
        date_start: today,
        date_end: today,
      }),
    );
    expect(delegation).toMatchObject({ delegator: c.emp.manager, delegate: c.emp.report2 });
    const overlap = await call('POST', '/approval-delegations', c.users.manager.token, {
      delegate: head.id,
      date_start: today,
      date_end: today,
    });
    expect([overlap.statusCode, overlap.json().error.details[0].field]).toEqual([400, 'date_start']);
    // A delegation back to the delegator (report2 → manager while manager → report2) is a cycle: 400 (Hardening IV item 27).
    const back = await call('POST', '/approval-delegations', admin, {
      delegator: c.emp.report2,
      delegate: c.emp.manager,
      date_start: today,
      date_end: today,
    });
    expect([back.statusCode, back.json().error.details]).toEqual([
      400,
      [{ field: 'delegate', message: `delegates back to ${c.emp.report2} on some of these days: a cycle` }],
    ]);
    const delegated = await request(c.users.employee.token, 8, 1);
    expect(delegated.approval.steps[0]).toMatchObject({
      approvers: [c.emp.report2],
      substitutions: [{ approver: c.emp.manager, by: c.emp.report2, reason: 'delegation' }],
    });
    await data(call('DELETE', `/approval-delegations/${delegation.id}`, c.users.manager.token));

    // The manager on approved leave today: skipped, and with nobody left the Admins decide.
    // Four days from today hold one to four working days whatever today is (under the five-day policy).
    const weekOn = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const away = await data(
      call('POST', '/leaves', admin, { employee: c.emp.manager, leave_type: annual, date_start: today, date_end: weekOn }),
    );
    await data(call('POST', `/leaves/${away.id}/approve`, admin));
    const skipped = await request(c.users.employee.token, 9, 1);
    expect(skipped.approval.steps[0]).toMatchObject({
      approvers: [],
      admins: true,
      substitutions: [{ approver: c.emp.manager, by: null, reason: 'leave' }],
    });
    expect(await inbox(admin)).toContain(`leave:${skipped.id}:1`);
    await data(call('POST', `/leaves/${away.id}/cancel`, admin));
  });

  it('a step waiting past escalate_after_days: the approvers’ supervisors join it', async () => {
    const slow = (
      await data(
        call('POST', '/approval-policies', admin, {
          name: 'Escalating',
          applies_to: 'leave',
          conditions: { min_days: 1, departments: [c.departments.platform], leave_types: [annual] },
          steps: [{ approvers: [`employee:${c.emp.report2}`], mode: 'any' }],
          escalate_after_days: 2,
        }),
      )
    ).id as number;
    const leave = await request(c.users.employee.token, 10, 1);
    expect(leave.approval.policy).toBe(slow);
    const inbox1 = t.app.get(ApprovalInboxService);
    expect(await inbox1.escalateDue(new Date(Date.now() + 86_400_000))).toBe(0);
    // Two working days: at most four calendar days on from any weekday (the company here has no holidays).
    expect(await inbox1.escalateDue(new Date(Date.now() + 5 * 86_400_000))).toBeGreaterThanOrEqual(1);
    const after = await data(call('GET', `/leaves/${leave.id}`, admin));
    expect(after.approval.steps[0].escalated).toEqual([c.emp.manager]); // report2's supervisor
    expect(await inbox(c.users.manager.token)).toContain(`leave:${leave.id}:1`);
    expect(
      (await outboxEvents(t.app, 'approval.escalated'))
        .filter((e) => (e.data as { id: number }).id === leave.id)
        .map((e) => e.data),
    ).toEqual([{ id: leave.id, kind: 'leave', employee: c.emp.report1, step: 1, added: [c.emp.manager] }]);
    await data(call('POST', `/leaves/${leave.id}/approve`, c.users.manager.token));
    await data(call('DELETE', `/approval-policies/${slow}`, admin));
  });

  it('the second approver hears of the request when step 1 is approved; the employee hears the outcome once', async () => {
    const relay = () => t.app.get(OutboxRelay).relay();
    await relay();
    const feed = async (token: string) =>
      (await call('GET', '/notifications?limit=500', token)).json().data as Array<{ kind: string; link: string; body: string }>;
    const leave = await request(c.users.employee.token, 11);
    await relay();
    const link = `/leaves/${leave.id}`;
    expect((await feed(c.users.manager.token)).filter((n) => n.link === link).map((n) => n.kind)).toEqual(['leave.requested']);
    expect((await feed(head.user.token)).filter((n) => n.link === link)).toEqual([]);
    await data(call('POST', `/leaves/${leave.id}/approve`, c.users.manager.token, { comment: 'fine by me' }));
    await relay();
    expect((await feed(head.user.token)).filter((n) => n.link === link).map((n) => n.kind)).toEqual(['approval.step_decided']);
    expect((await feed(c.users.employee.token)).filter((n) => n.link === link)).toEqual([]);
    await data(call('POST', `/leaves/${leave.id}/approve`, head.user.token));
    await relay();
    const told = (await feed(c.users.employee.token)).filter((n) => n.link === link);
    expect(told.map((n) => n.kind)).toEqual(['leave.decided']);
    expect(told[0].body).toContain('Step 1: approved by');
    expect(told[0].body).toContain('("fine by me")');
  });

  it('the request’s notification goes to step 1’s approvers even when relayed after step 2 opened', async () => {
    const relay = () => t.app.get(OutboxRelay).relay();
    await relay();
    const leave = await request(c.users.employee.token, 12);
    await data(call('POST', `/leaves/${leave.id}/approve`, c.users.manager.token));
    await relay();
    const kinds = async (token: string) =>
      ((await call('GET', '/notifications?limit=500', token)).json().data as Array<{ kind: string; link: string }>)
        .filter((n) => n.link === `/leaves/${leave.id}`)
        .map((n) => n.kind);
    expect(await kinds(c.users.manager.token)).toEqual(['leave.requested']);
    expect(await kinds(head.user.token)).toEqual(['approval.step_decided']);
  });

  it('refuses a policy with no steps, an empty approver set, an unknown role or mode, or a named employee who does not exist', async () => {
    const bad = async (body: object) => {
      const res = await call('POST', '/approval-policies', admin, { name: 'Bad', applies_to: 'leave', ...body });
      expect(res.statusCode).toBe(400);
      return (res.json().error.details as Array<{ field: string }>).map((d) => d.field);
    };
    expect(await bad({ steps: [] })).toEqual(['steps']);
    expect(await bad({ steps: [{ approvers: [], mode: 'any' }] })).toEqual(['steps.0.approvers']);
    expect(await bad({ steps: [{ approvers: ['ceo'], mode: 'any' }] })).toEqual(['steps.0.approvers']);
    expect(await bad({ steps: [{ approvers: ['supervisor'], mode: 'most' }] })).toEqual(['steps.0.mode']);
    expect(await bad({ steps: [{ approvers: ['employee:999999'], mode: 'any' }] })).toEqual(['steps[0].approvers']);
    const list = (await call('GET', '/approval-policies', admin)).json();
    expect(list.data.map((p: { name: string }) => p.name)).not.toContain('Bad');
  });
});
