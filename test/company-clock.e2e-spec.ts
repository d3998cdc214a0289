import { DataSource } from 'typeorm';
import { ApprovalInboxService } from '../src/approvals/approval-inbox.service';
import { CompanyClock } from '../src/common/time/company-clock';
import { EmploymentHistoryJobs } from '../src/employees/history/employment-history.jobs';
import { AccrualRunsRepository } from '../src/leave/ledger/accrual-runs.repository';
import { LeaveAccrualsService } from '../src/leave/ledger/leave-accruals.service';
import { RemindersService } from '../src/notifications/reminders.service';
import { BankFileService } from '../src/payroll/books/bank-file.service';
import { SettingsService } from '../src/settings/settings.service';
import { buildCompany, Company } from './helpers/company';
import { createTestApp, okCaller, TestApp } from './helpers/test-app';

/**
 * One clock for every business date (issue 64 item 2): moving CompanyClock moves the history job,
 * the leave accrual, reminders, escalation and the bank file's dates together, by the company's
 * day in its time zone. Pacific/Kiritimati is UTC+14: at 2027-03-01 12:00 UTC its day is already
 * 2 March, at 09:00 UTC it is still 1 March (23:00).
 */
describe("CompanyClock: the company's day, for every job and rule", () => {
  let t: TestApp;
  let c: Company;
  let clock: CompanyClock;
  let ok: ReturnType<typeof okCaller>;
  let admin: string;
  let ds: DataSource;
  const BEFORE = new Date('2027-03-01T09:00:00Z'); // 1 March in Kiritimati, 1 March in UTC
  const AFTER = new Date('2027-03-01T12:00:00Z'); // 2 March in Kiritimati, still 1 March in UTC

  beforeAll(async () => {
    t = await createTestApp({ SETTINGS_CACHE_MS: '0' });
    c = await buildCompany(t.app);
    ok = okCaller(t.app);
    admin = c.users.admin.token;
    ds = t.app.get(DataSource);
    clock = t.app.get(CompanyClock);
    const settings = t.app.get(SettingsService);
    await settings.set('Time Zone', 'Pacific/Kiritimati');
    await settings.set('Reminders: Birthdays', 'Yes');
  });
  afterEach(() => clock.moveTo(null));
  afterAll(() => t.close());

  it("today() is the day on the company's clocks, not UTC's", async () => {
    clock.moveTo(AFTER);
    expect(await clock.today()).toBe('2027-03-02');
    expect(AFTER.toISOString().slice(0, 10)).toBe('2027-03-01');
    clock.moveTo(BEFORE);
    expect(await clock.today()).toBe('2027-03-01');
  });

  it('the history job applies a change dated 2 March once the company reaches 2 March', async () => {
    const change = await ok('POST', `/employees/${c.emp.report2}/changes`, admin, {
      effective_date: '2027-03-02',
      fields: { department: c.departments.sales },
    });
    expect(change.status).toBe('Scheduled');
    const jobs = t.app.get(EmploymentHistoryJobs);
    clock.moveTo(BEFORE);
    expect(await jobs.run()).toMatchObject({ changes: 0 });
    clock.moveTo(AFTER);
    expect(await jobs.run()).toMatchObject({ changes: 1 });
    expect((await ok('GET', `/employees/${c.emp.report2}`, admin)).department).toBe(c.departments.sales);
  });

  it('the leave accrual runs for the company’s day', async () => {
    clock.moveTo(AFTER);
    await t.app.get(LeaveAccrualsService).scheduled();
    expect((await t.app.get(AccrualRunsRepository).last())?.day).toBe('2027-03-02');
  });

  it('reminders are those of the company’s day', async () => {
    await ds.query('UPDATE employees SET birthday = ? WHERE id = ?', ['1990-03-02', c.emp.report1]);
    const birthdays = async () =>
      Number(
        (
          await ds.query<Array<{ n: number | string }>>(
            "SELECT COUNT(*) AS n FROM notifications WHERE kind = 'reminder.birthday' AND source_key LIKE ?",
            [`reminder:reminder.birthday:${c.emp.report1}:%`],
          )
        )[0].n,
      );
    clock.moveTo(BEFORE);
    await t.app.get(RemindersService).run();
    expect(await birthdays()).toBe(0);
    clock.moveTo(AFTER);
    await t.app.get(RemindersService).run();
    expect(await birthdays()).toBeGreaterThan(0);
  });

  it('escalation counts working days on the moved clock: a weekend and a holiday are no wait (issue 65)', async () => {
    const year = new Date().getUTCFullYear();
    for (const y of [year, year + 1])
      await ok('POST', '/leave-periods', admin, { name: `P${y}`, date_start: `${y}-01-01`, date_end: `${y}-12-31` });
    const annual = (await ok('POST', '/leave-types', admin, { name: 'Clock Annual', default_days: 20 })).id as number;
    await ok('POST', '/approval-policies', admin, {
      name: 'Clock escalation',
      applies_to: 'leave',
      conditions: { leave_types: [annual] },
      steps: [{ approvers: [`employee:${c.emp.report2}`], mode: 'any' }],
      escalate_after_days: 2,
    });
    const calendar = ((await ok('GET', '/calendars', admin)) as Array<{ id: number; is_default: boolean }>).find(
      (x) => x.is_default,
    )!;
    await ok('POST', `/calendars/${calendar.id}/holidays`, admin, { date: '2027-02-08', name: 'A Monday off' });
    // Asked on Friday 5 February 2027 at noon in Kiritimati: two working days are Tuesday (not
    // Monday, a holiday) and Wednesday, so the step escalates on Wednesday at noon.
    clock.moveTo(new Date('2027-02-04T22:00:00Z'));
    const leave = await ok('POST', '/leaves', c.users.employee.token, {
      leave_type: annual,
      date_start: '2027-02-15',
      date_end: '2027-02-15',
    });
    const inbox = t.app.get(ApprovalInboxService);
    clock.moveTo(new Date('2027-02-08T22:00:00Z')); // Tuesday noon: four calendar days, one working day
    expect(await inbox.escalateDue()).toBe(0);
    clock.moveTo(new Date('2027-02-09T21:59:00Z')); // the clock moved on while the test ran: a minute's margin
    expect(await inbox.escalateDue()).toBe(0);
    clock.moveTo(new Date('2027-02-09T22:01:00Z')); // Wednesday noon
    expect(await inbox.escalateDue()).toBe(1);
    expect((await ok('GET', `/leaves/${leave.id}`, admin)).approval.steps[0].escalated).toEqual([c.emp.manager]);
  });

  it("a bank file's execution date may not be before the company's day", async () => {
    clock.moveTo(AFTER);
    const service: { executionDate(d?: string): Promise<string> } = t.app.get<BankFileService, never>(BankFileService);
    const executionDate = (day: string | undefined) => service.executionDate(day);
    await expect(executionDate('2027-03-01')).rejects.toMatchObject({
      details: [{ field: 'execution_date', message: 'must not be in the past (today is 2027-03-02)' }],
    });
    expect(await executionDate(undefined)).toBe('2027-03-02'); // a Tuesday
  });
});
