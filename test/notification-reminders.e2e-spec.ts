import { DataSource } from 'typeorm';
import { RemindersService } from '../src/notifications/reminders.service';
import { SettingsService } from '../src/settings/settings.service';
import { buildCompany, Company } from './helpers/company';
import { apiCaller, createTestApp, okCaller, TestApp } from './helpers/test-app';

type Item = { kind: string; title: string; link: string | null };

/** Date reminders (issue 30): with the clock set, each fires on its day once, to the right people. */
describe('notification reminders', () => {
  let t: TestApp;
  let c: Company;
  let ok: ReturnType<typeof okCaller>;
  let ds: DataSource;
  let settings: SettingsService;
  const run = (iso: string) => t.app.get(RemindersService).run(new Date(iso));
  const reminders = async (token: string): Promise<Item[]> =>
    (await ok('GET', '/notifications?limit=100', token)).filter((n: Item) => n.kind.startsWith('reminder.'));
  const kinds = async (token: string) => (await reminders(token)).map((n) => n.kind).sort();

  beforeAll(async () => {
    t = await createTestApp({ OUTBOX_RELAY_MS: '600000' });
    c = await buildCompany(t.app);
    ok = okCaller(t.app);
    ds = t.app.get(DataSource);
    settings = t.app.get(SettingsService);
    const set = (id: number, values: Record<string, string>) =>
      ds.query(
        `UPDATE employees SET ${Object.keys(values)
          .map((k) => `${k} = ?`)
          .join(', ')} WHERE id = ?`,
        [...Object.values(values), id],
      );
    // Monday 2027-03-08: report1's birthday, report2's 7th work anniversary and its probation ends
    // 14 days later, grandReport's contract 30 days later (report1 supervises it).
    await set(c.emp.report1, { birthday: '1990-03-08' });
    await set(c.emp.report2, { joined_date: '2020-03-08', confirmation_date: '2027-03-22' });
    await set(c.emp.grandReport, { termination_date: '2027-04-07', birthday: '2000-02-29' });
    // report1 worked on a project three weeks ago and entered nothing last week.
    const project = (await ok('POST', '/projects', c.users.admin.token, { name: 'Apollo' })).id;
    await ok('POST', '/timesheets', c.users.employee.token, {
      date: '2027-02-16',
      start: '09:00',
      end: '12:00',
      project,
      details: 'x',
    });
  });
  afterAll(() => t.close());

  it('birthdays are opt-in: off by default, nothing on the day', async () => {
    await run('2027-03-08T09:00:00Z');
    expect((await reminders(c.users.manager.token)).map((n) => n.kind)).not.toContain('reminder.birthday');
  });

  it("on the day: the manager hears of its report's birthday and anniversary, manager and HR of probation and contract ends, the employee of its missing week", async () => {
    await settings.set('Reminders: Birthdays', 'Yes');
    await settings.set('Reminders: Work Anniversaries', 'Yes');
    await run('2027-03-08T10:00:00Z');
    expect(await kinds(c.users.manager.token)).toEqual(['reminder.anniversary', 'reminder.birthday', 'reminder.probation']);
    const manager = await reminders(c.users.manager.token);
    expect(manager.find((n) => n.kind === 'reminder.anniversary')).toMatchObject({
      title: expect.stringMatching(/: 7 years at the company$/),
      link: `/employees/${c.emp.report2}`,
    });
    expect(manager.find((n) => n.kind === 'reminder.probation')?.title).toMatch(/ ends on 2027-03-22$/);
    expect(await kinds(c.users.restricted.token)).toEqual(['reminder.contract', 'reminder.probation']);
    expect(await kinds(c.users.employee.token)).toEqual(['reminder.contract', 'reminder.timesheet']);
    expect((await reminders(c.users.employee.token)).find((n) => n.kind === 'reminder.timesheet')?.title).toBe(
      'No time entries last week',
    );
    expect(await reminders(c.users.admin.token)).toEqual([]); // the Restricted Admin is HR here
    // No SMTP_URL here: no e-mail is owed.
    const [{ n }] = await ds.query<Array<{ n: number | string }>>('SELECT COUNT(*) AS n FROM notification_emails');
    expect(Number(n)).toBe(0);
  });

  it('once: later runs of the day (or another worker) add nothing; the next day fires none of these again', async () => {
    const before = await ds.query(`SELECT COUNT(*) AS n FROM notifications WHERE kind LIKE 'reminder.%'`);
    await Promise.all([run('2027-03-08T11:00:00Z'), run('2027-03-08T23:30:00Z')]);
    await run('2027-03-09T08:00:00Z');
    expect(await ds.query(`SELECT COUNT(*) AS n FROM notifications WHERE kind LIKE 'reminder.%'`)).toEqual(before);
  });

  it("the company's time zone decides the day; a 29 February birthday is kept on the 28th of a common year", async () => {
    await settings.set('Time Zone', 'Pacific/Auckland');
    try {
      // 2027-02-27 12:00 UTC is already 28 February in Auckland.
      await run('2027-02-27T12:00:00Z');
      const birthday = (await reminders(c.users.employee.token)).filter((n) => n.kind === 'reminder.birthday');
      expect(birthday).toHaveLength(1);
    } finally {
      await settings.set('Time Zone', 'UTC');
    }
    const refused = await apiCaller(t.app)('PUT', '/settings', c.users.admin.token, { name: 'Time Zone', value: 'Mars/Olympus' });
    expect(refused.statusCode).toBe(400);
  });
});
