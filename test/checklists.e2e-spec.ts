import { ChecklistsJobs } from '../src/checklists/checklists.jobs';
import { CompanyClock } from '../src/common/time/company-clock';
import { addDays } from '../src/common/time/days';
import { OutboxRelay } from '../src/common/outbox/outbox-relay';
import { buildCompany, Company, employeeBody } from './helpers/company';
import { multipartForm, SAMPLE_FILES } from './helpers/multipart';
import { apiCaller, bearer, createTestApp, createUser, okCaller, outboxEvents, TestApp, TestUser } from './helpers/test-app';

interface Item {
  id: number;
  title: string;
  assignee: string;
  assignees: number[];
  due_date: string;
  status: string;
  completed_by: number | null;
  cancel_reason: string | null;
  task: number | null;
}
interface ChecklistView {
  id: number;
  template: number;
  employee: number;
  trigger: string;
  effective_date: string;
  status: string;
  cancel_reason: string | null;
  progress: { completed: number; total: number };
  items: Item[];
}

/** Issue 67 (docs/api/checklists.md): templates, checklists started when a change is recorded, items as tasks. */
describe('lifecycle checklists', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let ok: ReturnType<typeof okCaller>;
  let admin: TestUser;
  let it_: { id: number; user: TestUser };
  let onboarding: number;
  let offboarding: number;
  let transfer: number;
  const today = new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    t = await createTestApp({ OUTBOX_RELAY_MS: '600000' });
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    ok = okCaller(t.app);
    admin = c.users.admin;
    const itId = (await ok('POST', '/employees', admin.token, employeeBody({ department: c.departments.company }))).id as number;
    it_ = { id: itId, user: await createUser(t.app, 'Employee', { employeeId: itId }) };
    onboarding = (
      await ok('POST', '/checklist-templates', admin.token, {
        name: 'Onboarding',
        trigger: 'hire',
        conditions: { departments: [c.departments.engineering] },
        items: [
          { title: 'Order a laptop', assignee: `employee:${itId}`, offset_days: -5 },
          { title: 'Name a buddy', assignee: 'supervisor', offset_days: 0 },
          { title: 'Sign the contract', assignee: 'admins', offset_days: -1 },
          { title: 'Lunch with the team', assignee: 'employee', offset_days: 3, required: false },
        ],
      })
    ).id as number;
    offboarding = (
      await ok('POST', '/checklist-templates', admin.token, {
        name: 'Offboarding',
        trigger: 'termination',
        items: [
          { title: 'Return the badge', assignee: 'employee', offset_days: 0 },
          { title: 'Close the accounts', assignee: `employee:${itId}`, offset_days: 1 },
        ],
      })
    ).id as number;
    transfer = (
      await ok('POST', '/checklist-templates', admin.token, {
        name: 'Transfer',
        trigger: 'transfer',
        items: [{ title: 'Move desks', assignee: 'admins', offset_days: 0 }],
      })
    ).id as number;
  });
  afterEach(() => t.app.get(CompanyClock).moveTo(null));
  afterAll(() => t.close());

  const relay = () => t.app.get(OutboxRelay).drain();
  const checklistsOf = async (employee: number, token = admin.token) =>
    (await ok('GET', `/checklists?employee=${employee}&limit=100`, token)) as ChecklistView[];
  const newEmployee = async (o: object) => {
    const id = (await ok('POST', '/employees', admin.token, employeeBody(o))).id as number;
    await relay();
    return id;
  };

  it('templates: Admin only, checked (a change template names its fields, assignees and references exist, offsets bounded)', async () => {
    const bad = async (body: object) => {
      const r = await call('POST', '/checklist-templates', admin.token, {
        name: 'x',
        trigger: 'hire',
        items: [{ title: 'x', assignee: 'employee', offset_days: 0 }],
        ...body,
      });
      expect(r.statusCode).toBe(400);
      return (r.json().error.details as Array<{ field: string }>).map((d) => d.field);
    };
    expect(await bad({ trigger: 'change' })).toEqual(['conditions.fields']);
    expect(await bad({ trigger: 'promotion' })).toContain('trigger');
    expect(await bad({ items: [{ title: 'x', assignee: 'boss', offset_days: 0 }] })).toContain('items.0.assignee');
    expect(await bad({ items: [{ title: 'x', assignee: 'employee', offset_days: 121 }] })).toContain('items.0.offset_days');
    expect(await bad({ items: [{ title: 'x', assignee: 'employee:999999', offset_days: 0 }] })).toEqual(['items.0.assignee']);
    expect(await bad({ items: [] })).toContain('items');
    expect(await bad({ conditions: { departments: [999999] } })).toEqual(['conditions.departments']);
    expect((await call('GET', '/checklist-templates', c.users.restricted.token)).statusCode).toBe(403);
    // A PUT accepts what its GET returned.
    const got = await ok('GET', `/checklist-templates/${transfer}`, admin.token);
    expect(await ok('PUT', `/checklist-templates/${transfer}`, admin.token, got)).toEqual(got);
  });

  it('a hire starts its onboarding when recorded, due from the joined date; items are tasks, completing either completes the other', async () => {
    const joins = addDays(today, 7);
    const id = await newEmployee({ department: c.departments.platform, supervisor: c.emp.manager, joined_date: joins });
    const [list] = await checklistsOf(id);
    expect(list).toMatchObject({ template: onboarding, trigger: 'hire', effective_date: joins, status: 'Open' });
    expect(list.progress).toEqual({ completed: 0, total: 4 });
    expect(list.items.map((i) => [i.title, i.due_date, i.status])).toEqual([
      ['Order a laptop', addDays(joins, -5), 'Open'],
      ['Name a buddy', joins, 'Open'],
      ['Sign the contract', addDays(joins, -1), 'Open'],
      ['Lunch with the team', addDays(joins, 3), 'Open'],
    ]);
    expect(list.items[0].assignees).toEqual([it_.user.user.id]);
    expect(list.items[1].assignees).toEqual([c.users.manager.user.id]);
    // Nobody holds the employee's own item yet (no user): its HR does.
    expect(list.items[3].assignees.length).toBeGreaterThan(0);
    expect((await outboxEvents(t.app, 'checklist.started')).map((e) => e.data)).toContainEqual({
      id: list.id,
      employee: id,
      template: onboarding,
      trigger: 'hire',
      effective_date: joins,
    });

    // The IT person: its task, the checklist through it, completion by the route.
    const tasks = (await ok('GET', '/tasks?limit=100', it_.user.token)) as Array<{
      id: number;
      source: string;
      source_id: number;
      due_date: string;
    }>;
    expect(tasks).toContainEqual(
      expect.objectContaining({ source: 'checklist-item', source_id: list.items[0].id, due_date: addDays(joins, -5) }),
    );
    const seen = (await ok('GET', `/checklists/${list.id}`, it_.user.token)) as ChecklistView;
    expect(seen.items[0].task).toEqual(expect.any(Number));
    expect(seen.items[1].task).toBeNull();
    // Not an assignee of the buddy item: 403; another employee sees nothing: 404.
    expect((await call('POST', `/checklists/${list.id}/items/${list.items[1].id}/complete`, it_.user.token)).statusCode).toBe(
      403,
    );
    expect((await call('GET', `/checklists/${list.id}`, c.users.employee.token)).statusCode).toBe(404);
    const after = (await ok(
      'POST',
      `/checklists/${list.id}/items/${list.items[0].id}/complete`,
      it_.user.token,
    )) as ChecklistView;
    expect(after.items[0]).toMatchObject({ status: 'Completed', completed_by: it_.user.user.id });
    expect(after.progress).toEqual({ completed: 1, total: 4 });
    const again = await call('POST', `/checklists/${list.id}/items/${list.items[0].id}/complete`, it_.user.token);
    expect([again.statusCode, again.json().error.code]).toEqual([409, 'INVALID_STATE']);
    const itTask = (await ok('GET', '/tasks?limit=100', it_.user.token)) as Array<{
      source_id: number;
      status: string;
      id: number;
    }>;
    const laptop = itTask.find((x) => x.source_id === list.items[0].id)!;
    expect(laptop.status).toBe('Completed');
    // A completed item's task cannot be reopened.
    expect((await call('POST', `/task-list/${laptop.id}/status`, it_.user.token, { status: 'Open' })).statusCode).toBe(409);

    // The supervisor completes its item through its task; the Admins theirs by the route: the required ones done, Completed.
    const buddy = ((await ok('GET', '/tasks?limit=100', c.users.manager.token)) as Array<{ id: number; source_id: number }>).find(
      (x) => x.source_id === list.items[1].id,
    )!;
    await ok('POST', `/task-list/${buddy.id}/status`, c.users.manager.token, { status: 'Completed' });
    await ok('POST', `/checklists/${list.id}/items/${list.items[2].id}/complete`, admin.token);
    const done = (await ok('GET', `/checklists/${list.id}`, admin.token)) as ChecklistView;
    expect(done.status).toBe('Completed');
    expect(done.items.map((i) => i.status)).toEqual(['Completed', 'Completed', 'Completed', 'Open']);
    expect(
      (await outboxEvents(t.app, 'checklist.completed')).filter((e) => (e.data as { id: number }).id === list.id),
    ).toHaveLength(1);
    // The supervisor sees its report's checklist; the employee of another department does not.
    expect((await checklistsOf(id, c.users.manager.token)).map((x) => x.id)).toEqual([list.id]);
    expect(await checklistsOf(id, c.users.employee.token)).toEqual([]);
  });

  it('a template applies by its conditions: a hire outside Engineering starts no onboarding; nor one whose every item is past due', async () => {
    const id = await newEmployee({ department: c.departments.sales });
    expect(await checklistsOf(id)).toEqual([]);
    // A hire recorded long after its day (an import of the company's history): every item would be past due, none starts.
    const old = await newEmployee({ department: c.departments.engineering, joined_date: addDays(today, -4) });
    expect(await checklistsOf(old)).toEqual([]);
    const recent = await newEmployee({ department: c.departments.engineering, joined_date: addDays(today, -3) });
    expect((await checklistsOf(recent)).map((x) => x.trigger)).toEqual(['hire']);
  });

  it('a termination recorded ahead starts the offboarding at once; a corrected date moves every due date and task; withdrawn, it is cancelled', async () => {
    const id = await newEmployee({ department: c.departments.sales, joined_date: '2024-01-10' });
    const leaves = addDays(today, 60);
    await ok('PUT', `/employees/${id}`, admin.token, { termination_date: leaves });
    await relay();
    const [list] = await checklistsOf(id);
    expect(list).toMatchObject({ template: offboarding, trigger: 'termination', effective_date: leaves, status: 'Open' });
    expect(list.items.map((i) => i.due_date)).toEqual([leaves, addDays(leaves, 1)]);

    const later = addDays(today, 75);
    await ok('PUT', `/employees/${id}`, admin.token, { termination_date: later });
    await relay();
    const [moved] = await checklistsOf(id);
    expect([moved.id, moved.effective_date]).toEqual([list.id, later]);
    expect(moved.items.map((i) => i.due_date)).toEqual([later, addDays(later, 1)]);
    const task = ((await ok('GET', '/tasks?limit=100', it_.user.token)) as Array<{ source_id: number; due_date: string }>).find(
      (x) => x.source_id === list.items[1].id,
    )!;
    expect(task.due_date).toBe(addDays(later, 1));

    await ok('PUT', `/employees/${id}`, admin.token, { termination_date: null });
    await relay();
    const [cancelled] = await checklistsOf(id);
    expect(cancelled).toMatchObject({ status: 'Cancelled', cancel_reason: 'the termination was withdrawn' });
    expect(cancelled.items.every((i) => i.status === 'Cancelled')).toBe(true);
    const left = (await ok('GET', '/tasks?limit=100', it_.user.token)) as Array<{ source_id: number }>;
    expect(left.some((x) => x.source_id === list.items[1].id)).toBe(false);
  });

  it('a transfer: a dated change of department starts it; a correction moves it; a cancelled change cancels it', async () => {
    const id = await newEmployee({ department: c.departments.sales, joined_date: '2024-01-10' });
    const day = addDays(today, 20);
    const change = await ok('POST', `/employees/${id}/changes`, admin.token, {
      effective_date: day,
      fields: { department: c.departments.platform },
    });
    await relay();
    const [list] = await checklistsOf(id);
    expect(list).toMatchObject({ template: transfer, trigger: 'transfer', effective_date: day });
    const corrected = addDays(today, 25);
    const fixed = await ok('POST', `/employees/${id}/changes/${change.id}/correct`, admin.token, {
      effective_date: corrected,
      reason: 'a later move',
    });
    await relay();
    const [moved] = await checklistsOf(id);
    expect([moved.id, moved.effective_date, moved.items[0].due_date]).toEqual([list.id, corrected, corrected]);
    await ok('DELETE', `/employees/${id}/changes/${fixed.id}`, admin.token);
    await relay();
    expect((await checklistsOf(id))[0]).toMatchObject({ status: 'Cancelled', cancel_reason: 'the change was cancelled' });
  });

  it('a joiner who leaves before its onboarding is done: its open onboarding is cancelled with the reason', async () => {
    const id = await newEmployee({ department: c.departments.engineering, joined_date: addDays(today, -2) });
    await ok('PUT', `/employees/${id}`, admin.token, { status: 'Terminated' });
    await relay();
    const lists = await checklistsOf(id);
    const hire = lists.find((x) => x.trigger === 'hire')!;
    expect(hire).toMatchObject({ status: 'Cancelled', cancel_reason: `the employee left on ${today}` });
    expect(hire.items.every((i) => i.status === 'Cancelled' && i.cancel_reason === `the employee left on ${today}`)).toBe(true);
  });

  it('an item waiting for a document completes when someone uploads one of its type for the employee', async () => {
    const contract = (await ok('POST', '/document-types', admin.token, { name: 'Signed contract' })).id as number;
    const template = (
      await ok('POST', '/checklist-templates', admin.token, {
        name: 'Paperwork',
        trigger: 'hire',
        conditions: { departments: [c.departments.sales] },
        items: [
          { title: 'Upload the signed contract', assignee: 'admins', offset_days: 0, document_type: contract },
          { title: 'Welcome call', assignee: 'admins', offset_days: 1 },
        ],
      })
    ).id as number;
    const id = await newEmployee({ department: c.departments.sales, joined_date: addDays(today, 3) });
    const list = (await checklistsOf(id)).find((x) => x.template === template)!;
    const form = multipartForm([
      { name: 'document_type', value: String(contract) },
      { name: 'file', filename: 'contract.pdf', type: 'application/pdf', data: SAMPLE_FILES.pdf() },
    ]);
    const upload = await t.app.inject({
      method: 'POST',
      url: `/app/api/employees/${id}/documents`,
      headers: { ...bearer(admin.token), ...form.headers },
      payload: form.payload,
    });
    expect(upload.statusCode).toBe(200);
    await relay();
    const after = (await ok('GET', `/checklists/${list.id}`, admin.token)) as ChecklistView;
    expect(after.items.map((i) => [i.status, i.completed_by])).toEqual([
      ['Completed', null],
      ['Open', null],
    ]);
    await ok('DELETE', `/checklist-templates/${template}`, admin.token);
    // The checklist stays when its template goes.
    expect(((await ok('GET', `/checklists/${list.id}`, admin.token)) as ChecklistView).id).toBe(list.id);
  });

  it('an item past due records checklist.item_overdue once a day until done, and notifies its assignees', async () => {
    const id = await newEmployee({ department: c.departments.engineering, joined_date: addDays(today, 2) });
    const [list] = await checklistsOf(id);
    const jobs = t.app.get(ChecklistsJobs);
    const laptop = list.items[0];
    const overdue = () =>
      outboxEvents(t.app, 'checklist.item_overdue').then((events) =>
        events.filter((e) => (e.data as { item: number }).item === laptop.id),
      );
    await jobs.remindOverdue(new Date(`${laptop.due_date}T12:00:00Z`));
    expect(await overdue()).toHaveLength(0);
    const next = addDays(laptop.due_date, 1);
    await jobs.remindOverdue(new Date(`${next}T08:00:00Z`));
    await jobs.remindOverdue(new Date(`${next}T20:00:00Z`));
    expect(await overdue()).toHaveLength(1);
    expect((await overdue())[0].data).toMatchObject({
      id: list.id,
      employee: id,
      title: 'Order a laptop',
      assignees: [it_.user.user.id],
    });
    await jobs.remindOverdue(new Date(`${addDays(next, 1)}T08:00:00Z`));
    expect(await overdue()).toHaveLength(2);
    await relay();
    const notes = (await ok('GET', '/notifications?limit=100', it_.user.token)) as Array<{ title: string }>;
    expect(notes.map((n) => n.title)).toContain('Overdue: Order a laptop');
    await ok('POST', `/checklists/${list.id}/items/${laptop.id}/complete`, admin.token);
    await jobs.remindOverdue(new Date(`${addDays(next, 2)}T08:00:00Z`));
    expect(await overdue()).toHaveLength(2);
  });
});
