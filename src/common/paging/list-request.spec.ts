import { AbstractLogger, DataSource, LogLevel, LogMessage } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../../database/data-source';
import { User } from '../../users/entities/user.entity';
import { findPage, likePattern, ListSpec, parseListQuery } from './list-request';
import { ListQueryDto } from './list-query.dto';

class QueryCounter extends AbstractLogger {
  selects = 0;
  protected writeLog(level: LogLevel, message: LogMessage | LogMessage[]): void {
    for (const m of Array.isArray(message) ? message : [message]) {
      if (level === 'query' && /^SELECT/i.test(String(m.message))) this.selects += 1;
    }
  }
}

const spec: ListSpec = {
  idColumn: 'u.id',
  sortFields: { id: 'u.id', username: 'u.username', level: 'u.user_level' },
  filterFields: {
    level: { column: 'u.user_level', type: 'string', values: ['Admin', 'Manager', 'Employee', 'Restricted Admin'] },
    employee: { column: 'u.employee_id', type: 'int' },
    employee_at_most: { column: 'u.employee_id', type: 'int', compare: 'atMost' },
    active: { column: 'u.active', type: 'boolean' },
  },
  searchColumns: ['u.username', 'u.email'],
};

const query = (q: Partial<ListQueryDto & { search: string }>) =>
  Object.assign(new ListQueryDto(), { page: 1, limit: 50, sortOrder: 'ascend' }, q);

describe('list requests', () => {
  it('validates sort fields, filter fields and values, naming each bad one', () => {
    expect(() => parseListQuery(query({ sortField: 'password_hash' }), spec)).toThrow(
      'sortField must be one of id, username, level',
    );
    const bad = () => parseListQuery(query({ filters: '{"level":"King","employee":"x","secret":1}' }), spec);
    expect(bad).toThrow();
    try {
      bad();
    } catch (e) {
      expect((e as { details: Array<{ field: string }> }).details.map((d) => d.field)).toEqual([
        'filters.level',
        'filters.employee',
        'filters.secret',
      ]);
    }
    expect(() => parseListQuery(query({ filters: '[1,2]' }), spec)).toThrow('filters must be a JSON object');
    expect(() => parseListQuery(query({ filters: 'not json' }), spec)).toThrow('filters must be a JSON object');
  });

  it('reads a,b as any of them for ids, codes and enumerations, and keeps a comma of free text (Hardening IV item 11)', () => {
    const withText: ListSpec = {
      ...spec,
      filterFields: { ...spec.filterFields, name: { column: 'u.username', type: 'string' } },
    };
    const req = parseListQuery(
      { filters: JSON.stringify({ employee: '2,3', level: 'Admin,Manager', name: 'Smith, J' }) } as ListQueryDto,
      withText,
    );
    expect(req.filters.map((f) => f.values)).toEqual([[2, 3], ['Admin', 'Manager'], ['Smith, J']]);
    expect(() => parseListQuery({ filters: JSON.stringify({ employee: '2,x' }) } as ListQueryDto, spec)).toThrow();
  });

  it('orders by the sort field with id as a stable tie-breaker', () => {
    expect(parseListQuery(query({ sortField: 'username', sortOrder: 'descend' }), spec).order).toEqual([
      ['u.username', 'DESC'],
      ['u.id', 'DESC'],
    ]);
    expect(parseListQuery(query({ sortField: 'id', sortOrder: 'descend' }), spec).order).toEqual([['u.id', 'DESC']]);
    expect(parseListQuery(query({}), spec).order).toEqual([['u.id', 'ASC']]);
  });

  it("applies the endpoint default order without a sortField, and the caller's sortField otherwise", () => {
    const newestFirst = { ...spec, defaultSort: { field: 'username', order: 'descend' as const } };
    expect(parseListQuery(query({}), newestFirst).order).toEqual([
      ['u.username', 'DESC'],
      ['u.id', 'DESC'],
    ]);
    expect(parseListQuery(query({ sortField: 'level' }), newestFirst).order).toEqual([
      ['u.user_level', 'ASC'],
      ['u.id', 'ASC'],
    ]);
  });

  it('escapes LIKE wildcards in search text', () => {
    expect(likePattern('50%_a!')).toBe('%50!%!_a!!%');
  });

  describe('against a database', () => {
    let ds: DataSource;
    const counter = new QueryCounter(['query']);

    beforeAll(async () => {
      ds = new DataSource({
        ...dataSourceOptions({ type: 'sqlite', path: ':memory:' }),
        entities: [User],
        logger: counter,
        logging: ['query'],
      });
      await ds.initialize();
      await runMigrations(ds);
      // The fixture's employee_id values are just numbers to filter on: no employees table rows behind them.
      await ds.query('PRAGMA foreign_keys = OFF');
      const levels = ['Admin', 'Manager', 'Employee'] as const;
      const rows = Array.from({ length: 3000 }, (_, i) => ({
        username: `user${String(i).padStart(4, '0')}`,
        email: `user${i}@${i % 10 === 0 ? 'corp' : 'home'}.test`,
        passwordHash: 'x',
        userLevel: levels[i % 3],
        employeeId: i % 7 === 0 ? null : i,
        active: i % 2 === 0,
        mustChangePassword: false,
      }));
      for (let i = 0; i < rows.length; i += 500) await ds.getRepository(User).insert(rows.slice(i, i + 500));
    });
    afterAll(() => ds.destroy());

    it('pages, sorts, filters and searches in one page query and one COUNT', async () => {
      const req = parseListQuery(
        query({
          page: 2,
          limit: 10,
          sortField: 'username',
          sortOrder: 'descend',
          filters: '{"level":["Admin","Manager"],"active":true}',
          search: 'CORP',
        }),
        spec,
      );
      counter.selects = 0;
      const page = await findPage(ds.getRepository(User).createQueryBuilder('u'), req);
      expect(counter.selects).toBe(2);
      // Expected, computed independently: even i, i % 3 in {0, 1}, i % 10 == 0 → i % 10 == 0 and i % 3 != 2.
      const expected = Array.from({ length: 3000 }, (_, i) => i)
        .filter((i) => i % 2 === 0 && i % 3 !== 2 && i % 10 === 0)
        .map((i) => `user${String(i).padStart(4, '0')}`)
        .sort()
        .reverse();
      expect(page.total).toBe(expected.length);
      expect(page.items.map((u) => u.username)).toEqual(expected.slice(10, 20));
      expect(page.nextPage).toBe(3);
    });

    it('filters on null with IS NULL', async () => {
      const req = parseListQuery(query({ filters: '{"employee":[null]}', limit: 500 }), spec);
      const page = await findPage(ds.getRepository(User).createQueryBuilder('u'), req);
      expect(page.total).toBe(Math.ceil(3000 / 7));
      expect(page.items.every((u) => u.employeeId === null)).toBe(true);
    });

    it('an atMost filter takes one value and matches the rows at most it (nulls left out)', async () => {
      const req = parseListQuery(query({ filters: '{"employee_at_most":100}', limit: 500 }), spec);
      const page = await findPage(ds.getRepository(User).createQueryBuilder('u'), req);
      const expected = Array.from({ length: 101 }, (_, i) => i).filter((i) => i % 7 !== 0);
      expect(page.items.map((u) => u.employeeId)).toEqual(expected);
      for (const bad of ['[1,2]', '[]', 'null']) {
        expect(() => parseListQuery(query({ filters: `{"employee_at_most":${bad}}` }), spec)).toThrow(
          expect.objectContaining({ details: [{ field: 'filters.employee_at_most', message: 'must be one value' }] }),
        );
      }
    });

    it('treats search wildcards literally', async () => {
      const req = parseListQuery(query({ search: '%' }), spec);
      expect((await findPage(ds.getRepository(User).createQueryBuilder('u'), req)).total).toBe(0);
    });
  });
});
