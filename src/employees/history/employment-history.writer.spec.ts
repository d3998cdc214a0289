import 'reflect-metadata';
import { DataSource, EntityManager } from 'typeorm';
import { AuditEntry } from '../../audit/entities/audit-entry.entity';
import { OutboxEvent } from '../../common/outbox/outbox.entities';
import { transaction } from '../../common/database/transaction';
import { CompanyClock } from '../../common/time/company-clock';
import { DepartmentMove } from '../../common/database/day-rollup';
import { EmployeeHooks } from '../core/employee-hooks';
import { Employee } from '../entities/employee.entity';
import { EmploymentChange, EmploymentSegment } from '../entities/employment-history.entities';
import { SalaryLine } from './employment-history';
import { EmploymentHistoryRepository } from './employment-history.repository';
import { ChangeInput, EmploymentHistoryWriter, MAX_SCHEDULED } from './employment-history.writer';

/*
 * The history writer on its own (issue 64 item 7): an in-memory database with the employees, the
 * history's two tables, the audit log and the outbox; the company's clock set to 2026-06-15 noon
 * UTC; a department hook and a salary keeper that record what they are told. Its promise: a change
 * is Effective from the company's today on and applies today's values to the employee (row, salary,
 * hooks, events), a later one is Scheduled and touches only the segments; segments are rewritten
 * from the first that differs; scheduled changes are bounded; recording instants strictly increase.
 */

const NOON = new Date('2026-06-15T12:00:00Z');

describe('EmploymentHistoryWriter', () => {
  let ds: DataSource;
  let clock: CompanyClock;
  let writer: EmploymentHistoryWriter;
  let moves: Array<{ employee: number; moves: DepartmentMove[] }>;
  let salaries: Array<{ employee: number; lines: SalaryLine[] }>;
  let ada: Employee;
  let repository: EmploymentHistoryRepository;

  const inTransaction = <T>(work: (em: EntityManager) => Promise<T>) => transaction(ds, work);
  const record = (input: Partial<ChangeInput> & Pick<ChangeInput, 'effectiveDate'>, employee = ada) =>
    inTransaction((em) => writer.recordIn(em, employee.id, { reason: null, fields: {}, salary: null, ...input }, 1));
  const segments = (employee = ada) =>
    ds.query<Array<{ effective_from: string; effective_to: string | null; department_id: number | null }>>(
      'SELECT effective_from, effective_to, department_id FROM employment_segments WHERE employee_id = ? ORDER BY effective_from',
      [employee.id],
    );
  const events = async () =>
    (await ds.query<Array<{ event: string; payload: string }>>('SELECT event, payload FROM outbox_events ORDER BY id')).map(
      (e) => ({ event: e.event, data: JSON.parse(e.payload) as Record<string, unknown> }),
    );
  const hire = async (employeeId: string, joinedDate: string, departmentId: number) => {
    const saved = await ds
      .getRepository(Employee)
      .save({ employeeId, firstName: 'A', lastName: employeeId, joinedDate, departmentId });
    await inTransaction((em) => writer.startHistories(em, [saved], 1));
    return saved;
  };

  beforeEach(async () => {
    ds = new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [Employee, EmploymentChange, EmploymentSegment, AuditEntry, OutboxEvent],
      synchronize: true,
    });
    await ds.initialize();
    clock = new CompanyClock();
    clock.moveTo(NOON);
    const hooks = new EmployeeHooks();
    moves = [];
    hooks.department.push(async (_em, employee, m) => void moves.push({ employee, moves: m }));
    repository = new EmploymentHistoryRepository(ds);
    writer = new EmploymentHistoryWriter(repository, clock, hooks);
    salaries = [];
    writer.keepSalaries({
      check: async () => null,
      apply: async (_em, employee, lines) => void salaries.push({ employee, lines }),
    });
    ada = await hire('E1', '2025-01-01', 1);
    await ds.query('DELETE FROM outbox_events');
  });
  afterEach(() => ds.destroy());

  it('starts each new employee with one Joined change, Effective by its joined date or Scheduled after, and one open segment', async () => {
    const later = await hire('E2', '2026-07-01', 4);
    const changes = await ds.getRepository(EmploymentChange).find({ order: { id: 'ASC' } });
    expect(changes.map((c) => [c.employeeId, c.effectiveDate, c.reason, c.status])).toEqual([
      [ada.id, '2025-01-01', 'Joined', 'Effective'],
      [later.id, '2026-07-01', 'Joined', 'Scheduled'],
    ]);
    expect(JSON.parse(changes[1].fields)).toMatchObject({ department: 4, job_title: null });
    expect((await segments(later)).map((s) => [s.effective_from, s.effective_to, s.department_id])).toEqual([
      ['2026-07-01', null, 4],
    ]);
  });

  it("a change dated today or before is Effective: segments split at its day, today's values on the row, the hook and the events told", async () => {
    const change = await record({ effectiveDate: '2026-06-01', reason: 'Move', fields: { department: 2 } });
    expect(change.status).toBe('Effective');
    expect((await segments()).map((s) => [s.effective_from, s.effective_to, s.department_id])).toEqual([
      ['2025-01-01', '2026-05-31', 1],
      ['2026-06-01', null, 2],
    ]);
    expect((await ds.getRepository(Employee).findOneByOrFail({ id: ada.id })).departmentId).toBe(2);
    expect(moves).toEqual([{ employee: ada.id, moves: [{ from: '2026-06-01', to: null, before: 1, after: 2 }] }]);
    const recorded = await events();
    expect(recorded.map((e) => e.event).sort()).toEqual([
      'employee.change_effective',
      'employee.change_recorded',
      'employee.updated',
    ]);
    expect(recorded.find((e) => e.event === 'employee.change_effective')?.data).toMatchObject({
      id: change.id,
      employee: ada.id,
      changes: { department: [1, 2] },
    });
    expect(await ds.query('SELECT action, resource FROM audit_log ORDER BY resource')).toEqual([
      { action: 'update', resource: 'employees' },
      { action: 'create', resource: 'employees/changes' },
    ]);
  });

  it('a change dated after today is Scheduled: the row stays, only the segments (and the day rollups through the hook) move', async () => {
    const change = await record({ effectiveDate: '2026-09-01', fields: { department: 3 } });
    expect(change.status).toBe('Scheduled');
    expect((await ds.getRepository(Employee).findOneByOrFail({ id: ada.id })).departmentId).toBe(1);
    expect((await segments()).map((s) => [s.effective_from, s.effective_to, s.department_id])).toEqual([
      ['2025-01-01', '2026-08-31', 1],
      ['2026-09-01', null, 3],
    ]);
    expect(moves).toEqual([{ employee: ada.id, moves: [{ from: '2026-09-01', to: null, before: 1, after: 3 }] }]);
    expect((await events()).map((e) => e.event)).toEqual(['employee.change_recorded']);
  });

  it("'today' is the company's day: on the Time Zone setting's clocks a change of tomorrow in UTC is Effective already", async () => {
    clock.readZoneWith(async () => 'Pacific/Kiritimati'); // UTC+14: 2026-06-16 at 02:00 there
    expect((await record({ effectiveDate: '2026-06-16', fields: { department: 5 } })).status).toBe('Effective');
    clock.readZoneWith(async () => 'UTC');
    expect((await record({ effectiveDate: '2026-06-17', fields: { department: 6 } })).status).toBe('Scheduled');
  });

  it('rewrites the segments only from the first that differs: an earlier stretch is not touched', async () => {
    await record({ effectiveDate: '2026-03-01', fields: { department: 2 } });
    const rewrite = jest.spyOn(repository, 'replaceSegmentsFrom');
    await record({ effectiveDate: '2026-09-01', fields: { job_title: 7 } });
    expect((await segments()).map((s) => [s.effective_from, s.effective_to])).toEqual([
      ['2025-01-01', '2026-02-28'],
      ['2026-03-01', '2026-08-31'],
      ['2026-09-01', null],
    ]);
    // The stretch before 2026-03-01 is not touched; the one it ends is rewritten with the new one.
    expect(rewrite.mock.calls.map(([, employee, from, rows]) => [employee, from, rows.map((r) => r.effectiveFrom)])).toEqual([
      [ada.id, '2026-03-01', ['2026-03-01', '2026-09-01']],
    ]);
  });

  it("sends today's salary to the salary keeper when it differs (sorted, component and amount only), and refuses without a keeper", async () => {
    await record({
      effectiveDate: '2026-06-01',
      salary: [{ component: 2, amount: '150.00' }, { component: 1, amount: '3000.00', note: 'dropped' } as SalaryLine],
    });
    expect(salaries).toEqual([
      {
        employee: ada.id,
        lines: [
          { component: 1, amount: '3000.00' },
          { component: 2, amount: '150.00' },
        ],
      },
    ]);
    // A future raise changes nothing today.
    await record({ effectiveDate: '2026-08-01', salary: [{ component: 1, amount: '3300.00' }] });
    expect(salaries).toHaveLength(1);
    writer.salaryKeeper = null;
    await expect(record({ effectiveDate: '2026-06-10', salary: [{ component: 1, amount: '3100.00' }] })).rejects.toThrow(
      'No salary keeper registered',
    );
    expect(await ds.getRepository(EmploymentChange).countBy({ employeeId: ada.id })).toBe(3);
  });

  it(`refuses a scheduled change beyond ${MAX_SCHEDULED} with 409 CONFLICT, while a change of today still records`, async () => {
    const base = { employeeId: ada.id, reason: null, salary: null, recordedBy: 1, cancelledAt: null, corrects: null };
    await inTransaction((em) =>
      repository.insertChanges(
        em,
        Array.from({ length: MAX_SCHEDULED }, (_, i) => ({
          ...base,
          effectiveDate: `2027-01-${String((i % 28) + 1).padStart(2, '0')}`,
          fields: JSON.stringify({ job_title: i }),
          status: 'Scheduled' as const,
          recordedAt: new Date(NOON.getTime() + i),
        })),
      ),
    );
    await expect(record({ effectiveDate: '2026-12-01', fields: { job_title: 1 } })).rejects.toMatchObject({
      code: 'CONFLICT',
      details: [{ field: 'effective_date', message: `at most ${MAX_SCHEDULED} scheduled changes per employee` }],
    });
    expect((await record({ effectiveDate: '2026-06-15', fields: { department: 2 } })).status).toBe('Effective');
  });

  it('records each change at an instant after every earlier recording and cancellation, even one ahead of the real clock', async () => {
    const ahead = new Date(Date.now() + 3_600_000);
    const cancelled = new Date(ahead.getTime() + 5);
    const earlier = [{ recordedAt: ahead, cancelledAt: cancelled } as EmploymentChange];
    expect(writer.nextInstant(earlier).getTime()).toBe(cancelled.getTime() + 1);
    const first = await record({ effectiveDate: '2026-06-01', fields: { department: 2 } });
    const second = await record({ effectiveDate: '2026-06-01', fields: { department: 3 } });
    expect(second.recordedAt.getTime()).toBeGreaterThan(first.recordedAt.getTime());
    // The later recording of the same day wins.
    expect((await ds.getRepository(Employee).findOneByOrFail({ id: ada.id })).departmentId).toBe(3);
  });
});
