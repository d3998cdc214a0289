import { getRepositoryToken } from '@nestjs/typeorm';
import { DataSource, QueryBuilder, Repository } from 'typeorm';
import { logContext } from '../src/common/audit/audit-context';
import { byIdReader } from '../src/common/database/by-id-reader';
import { DriverReader } from '../src/common/database/driver-reader';
import { transaction } from '../src/common/database/transaction';
import { Employee } from '../src/employees/entities/employee.entity';
import { Payroll } from '../src/payroll/entities/payroll-run.entities';
import { User } from '../src/users/entities/user.entity';
import { buildCompany, employeeBody } from './helpers/company';
import { apiCaller, createTestApp, TestApp } from './helpers/test-app';

/** byIdReader answers exactly what findOne does, on SQLite and (integration) MariaDB. */
describe('byIdReader: one entity by primary key, SQL built once', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('hydrates like findOne: dates, numbers, nulls, booleans, transformers, JSON columns; null when missing', async () => {
    const c = await buildCompany(t.app);
    const call = apiCaller(t.app);
    const full = await call('POST', '/employees', c.users.admin.token, {
      ...employeeBody({ department: c.departments.platform, supervisor: c.emp.manager }),
      middle_name: 'Ö. Ünïcødé',
      birthday: '1990-02-28',
      marital_status: 'Married',
      termination_date: '2030-12-31',
      ssn_num: '123-45-6789',
    });
    expect(full.statusCode).toBe(200);
    const employees = t.app.get<Repository<Employee>>(getRepositoryToken(Employee));
    const read = byIdReader(employees);
    for (const id of [full.json().data.id, c.emp.manager, c.emp.outsider]) {
      const mine = await read(id);
      expect(mine).toBeInstanceOf(Employee);
      expect(mine).toEqual(await employees.findOne({ where: { id } }));
    }
    expect(await read(999_999)).toBeNull();
    // Other entities: booleans and datetimes (users), simple-json and decimals (payrolls' columns).
    const users = t.app.get<Repository<User>>(getRepositoryToken(User));
    expect(await byIdReader(users)(c.users.admin.user.id)).toEqual(await users.findOne({ where: { id: c.users.admin.user.id } }));
    const payrolls = t.app.get<Repository<Payroll>>(getRepositoryToken(Payroll));
    const saved = await payrolls.save(
      payrolls.create({
        name: 'Reader',
        payPeriod: 4,
        departmentId: c.departments.company,
        deductionGroupId: null,
        dateStart: '2026-01-01',
        dateEnd: '2026-01-31',
        columns: [3, 1, 2],
        payslipTemplateId: null,
        status: 'Draft',
        progress: 0,
        error: null,
        claimedAt: new Date('2026-02-01T10:11:12Z'),
        claim: null,
        processedAt: null,
        completedAt: null,
      }),
    );
    expect(await byIdReader(payrolls)(saved.id)).toEqual(await payrolls.findOne({ where: { id: saved.id } }));
  });

  it('refuses an entity with a floating-point column (the prepared statement would read it as a double)', async () => {
    const employees = t.app.get<Repository<Employee>>(getRepositoryToken(Employee));
    const meta = employees.metadata;
    const withColumns = (columns: unknown[]) =>
      ({
        manager: employees.manager,
        metadata: { ...meta, columns },
        create: () => employees.create(),
      }) as unknown as Repository<Employee>;
    const c = await buildCompany(t.app);
    // The same copy of the metadata without the float column reads the employee.
    await expect(byIdReader(withColumns(meta.columns))(c.emp.manager)).resolves.toMatchObject({ id: c.emp.manager });
    await expect(
      byIdReader(withColumns([...meta.columns, { ...meta.columns[1], type: 'float' }]))(c.emp.manager),
    ).rejects.toThrow('is not an entity of plain columns');
  });

  it('never sees the writes of a transaction that is still open, and none of one rolled back', async () => {
    const c = await buildCompany(t.app);
    const ds = t.app.get(DataSource);
    const employees = t.app.get<Repository<Employee>>(getRepositoryToken(Employee));
    const read = byIdReader(employees);
    let reached!: () => void;
    const inside = new Promise<void>((r) => (reached = r));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const tx = transaction(ds, async (em) => {
      await em.update(Employee, { id: c.emp.manager }, { firstName: 'Uncommitted' });
      reached();
      await held;
      throw new Error('rolled back');
    });
    await inside;
    // On SQLite the read waits for the transaction (one connection); on MariaDB it reads the committed row.
    const during = read(c.emp.manager);
    release();
    await expect(tx).rejects.toThrow('rolled back');
    expect((await during)?.firstName).not.toBe('Uncommitted');
    expect((await read(c.emp.manager))?.firstName).not.toBe('Uncommitted');
  });

  it('inside a transaction reads the writes of that same transaction (on MariaDB through its connection, not the pool)', async () => {
    const c = await buildCompany(t.app);
    const ds = t.app.get(DataSource);
    const read = byIdReader(t.app.get<Repository<Employee>>(getRepositoryToken(Employee)));
    const seen = await transaction(ds, async (em) => {
      await em.update(Employee, { id: c.emp.report1 }, { firstName: 'Own write' });
      const rows = await DriverReader.of(ds).arrays('SELECT first_name FROM employees WHERE id = :id', { id: c.emp.report1 });
      return { byId: (await read(c.emp.report1))?.firstName, arrays: rows[0]?.[0] };
    });
    expect(seen).toEqual({ byId: 'Own write', arrays: 'Own write' });
  });

  it('GET /employees/{id} builds no TypeORM query once warm: every read of the route is SQL built once (the privacy property once cost a third of it)', async () => {
    const c = await buildCompany(t.app);
    const call = apiCaller(t.app);
    const read = () => call('GET', `/employees/${c.emp.manager}`, c.users.admin.token);
    // The process's short caches (settings, custom field definitions, reference names, tokens:
    // 1-2 s) stay warm while the clock stands: under .ci/run's load three reads took longer than
    // the definitions' second, and their refresh was counted as the route's own query.
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
    let built: jest.SpyInstance | undefined;
    try {
      const first = await read();
      expect(first.statusCode).toBe(200);
      expect(first.json().data.privacy).toEqual({ legal_hold: false, anonymised_at: null });
      // Every query TypeORM builds passes there; what a request built is named if the test fails.
      const original = QueryBuilder.prototype.getQueryAndParameters;
      const sql: string[] = [];
      built = jest.spyOn(QueryBuilder.prototype, 'getQueryAndParameters').mockImplementation(function (
        this: QueryBuilder<Employee>,
      ) {
        const out = original.call(this);
        // Only what a request builds: on MariaDB with Redis the outbox relay's jobs (a checklist
        // looked for on employee.created) run meanwhile, outside any request.
        if (logContext()?.reqId !== undefined) sql.push(out[0]);
        return out;
      });
      for (let i = 0; i < 3; i++) expect((await read()).json()).toEqual(first.json());
      expect(sql).toEqual([]);
    } finally {
      built?.mockRestore();
      clock.mockRestore();
    }
  });
});
