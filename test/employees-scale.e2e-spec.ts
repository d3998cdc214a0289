import { describeIf, LONG, NEEDS_LONG } from './helpers/skip';
import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource } from 'typeorm';
import { AuthUser } from '../src/common/auth/auth-user';
import { DriverReader } from '../src/common/database/driver-reader';
import { SearchableListQueryDto } from '../src/common/paging/list-query.dto';
import { findPage, parseListQuery } from '../src/common/paging/list-request';
import { Employee } from '../src/employees/entities/employee.entity';
import { EMPLOYEE_LIST_SPEC, EmployeesService } from '../src/employees/employees.service';
import { ReferenceService } from '../src/reference/reference.service';
import { bulkEmployees } from '../src/database/seeds/bulk-employees';
import { createTestApp, TestApp } from './helpers/test-app';

const COUNT = 100_000;

const caller = (over: Partial<AuthUser>): AuthUser => ({
  id: 1,
  username: 'x',
  email: 'x@x.test',
  level: 'Admin',
  employeeId: null,
  departmentIds: [],
  mustChangePassword: false,
  grantId: 'g',
  ...over,
});

const query = (q: Partial<SearchableListQueryDto>) => Object.assign(new SearchableListQueryDto(), q);

/** The queries counted are those of the list call itself: a background poll's (the scheduler's, the
 * settings cache's) that lands meanwhile ran in another async context and is not one of its. */
const counting = new AsyncLocalStorage<true>();

describeIf(LONG, NEEDS_LONG)(`GET /employees over ${COUNT} employees`, () => {
  let t: TestApp;
  let ds: DataSource;
  let service: EmployeesService;
  let first: number;
  let deps: { root: number; a: number; b: number; c: number };
  let selects: string[] = [];

  beforeAll(async () => {
    // Counts the queries of one request: without the webhook and notification dispatchers' background polls.
    t = await createTestApp({ OUTBOX_RELAY_MS: '600000' });
    ds = t.app.get(DataSource);
    service = t.app.get(EmployeesService);
    const ref = t.app.get(ReferenceService);
    const dep = (name: string, parent: number | null) => ref.addDepartment(name, parent);
    const root = await dep('Root', null);
    deps = { root, a: await dep('A', root), b: 0, c: 0 };
    deps.b = await dep('B', deps.a);
    deps.c = await dep('C', root);
    first = await bulkEmployees(ds, COUNT, [deps.a, deps.b, deps.c]);

    // Every query any query runner sends, whichever driver, and every read straight through the driver.
    const spy = (
      proto: Record<'query' | 'first' | 'arrays', (...args: unknown[]) => Promise<unknown>>,
      method: 'query' | 'first' | 'arrays',
    ) => {
      const original = proto[method];
      jest.spyOn(proto, method).mockImplementation(function (this: unknown, ...args: unknown[]) {
        // Not the custom field definitions: a process reads them at most once a second (DEFINITIONS_TTL_MS), not per request.
        const sql = String(args[0]);
        if (counting.getStore() && /^\s*(SELECT|WITH)/i.test(sql) && !/FROM .custom_fields. /.test(sql)) selects.push(sql);
        return original.apply(this, args);
      });
    };
    spy(Object.getPrototypeOf(ds.createQueryRunner()), 'query');
    spy(DriverReader.prototype as never, 'first');
    spy(DriverReader.prototype as never, 'arrays');
  }, 180_000);
  afterAll(async () => {
    jest.restoreAllMocks();
    await t.close();
  });

  beforeEach(() => (selects = []));
  const list = (...args: Parameters<EmployeesService['list']>) => counting.run(true, () => service.list(...args));

  it('an Admin pages, sorts and filters with one page query and one COUNT', async () => {
    const page = await list(
      caller({}),
      query({
        page: 3,
        limit: 50,
        sortField: 'last_name',
        sortOrder: 'descend',
        filters: JSON.stringify({ status: 'Active', department: [deps.a, deps.b] }),
      }),
    );
    expect(selects).toHaveLength(2);
    expect(page.items).toHaveLength(50);
    // Independent count: i % 3 in {0, 1} (departments a, b) and i % 7 != 0 (Active).
    let expected = 0;
    for (let i = 0; i < COUNT; i++) if (i % 3 !== 2 && i % 7 !== 0) expected++;
    expect(page.total).toBe(expected);
    const names = page.items.map((e) => e.last_name);
    expect(names).toEqual([...names].sort().reverse());
  });

  it('the last page and a search also take two queries', async () => {
    const last = await list(caller({}), query({ page: COUNT / 500, limit: 500 }));
    expect(last.items).toHaveLength(500);
    expect(last.nextPage).toBeNull();
    const search = await list(caller({}), query({ search: 'B099999' }));
    expect(search.items.map((e) => e.employee_id)).toEqual(['B099999']);
    expect(selects).toHaveLength(4);
  });

  it('a Restricted Admin adds one recursive department query; a Manager none', async () => {
    const restricted = await list(caller({ level: 'Restricted Admin', departmentIds: [deps.a] }), query({ limit: 10 }));
    expect(selects).toHaveLength(3);
    expect(restricted.total).toBe(Math.ceil((2 * COUNT) / 3)); // departments a and its child b
    selects = [];
    const manager = await list(caller({ level: 'Manager', employeeId: first }), query({ limit: 500 }));
    expect(selects).toHaveLength(2);
    expect(manager.total).toBe(9);
  });

  it('pages read directly (offset up to 200) and by the deferred join follow on without a gap or a repeat', async () => {
    const spec = {
      sortField: 'last_name',
      sortOrder: 'descend' as const,
      filters: JSON.stringify({ department: [deps.a, deps.c] }),
    };
    const whole = await list(caller({}), query({ ...spec, limit: 500 }));
    const pages = [];
    for (let page = 1; page <= 10; page++) pages.push(...(await list(caller({}), query({ ...spec, page, limit: 50 }))).items);
    expect(pages.map((e) => e.id)).toEqual(whole.items.map((e) => e.id));
    // findPage (the query-builder lists) reads its pages the same way.
    const request = (page: number, limit: number) => parseListQuery(query({ ...spec, page, limit }), EMPLOYEE_LIST_SPEC);
    const qb = () => ds.getRepository(Employee).createQueryBuilder('e');
    const built = [];
    for (let page = 1; page <= 10; page++) built.push(...(await findPage(qb(), request(page, 50))).items);
    expect(built.map((e) => e.id)).toEqual(whole.items.map((e) => e.id));
    expect((await findPage(qb(), request(1, 500))).items.map((e) => e.id)).toEqual(whole.items.map((e) => e.id));
  });
});
