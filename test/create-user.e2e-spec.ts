import { getRepositoryToken } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { JobQueue } from '../src/common/queue/job-queue.service';
import { User } from '../src/users/entities/user.entity';
import { TestApp, apiCaller, createTestApp, sleep, until } from './helpers/test-app';
import { buildCompany, Company, employeeBody } from './helpers/company';
import { closedPort, SmtpSink, startSmtp } from './helpers/smtp';

describe('POST /employees/{id}/create-user with a real SMTP server', () => {
  let smtp: SmtpSink;
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  const bodies: string[] = [];

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({
      SMTP_URL: smtp.url,
      MAIL_STATUS_WAIT_MS: '5000',
      MAIL_RETRY_BACKOFF_MS: '50',
      PUBLIC_URL: 'https://hr.example.com',
    });
    c = await buildCompany(t.app);
    const inner = apiCaller(t.app);
    call = async (...args) => {
      const res = await inner(...args);
      bodies.push(res.body);
      return res;
    };
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const newEmployee = async () =>
    (await call('POST', '/employees', c.users.admin.token, employeeBody())).json().data.id as number;

  it('creates the user, answers the seed shape, and the e-mailed password signs in and must be changed', async () => {
    const employee = await newEmployee();
    const res = await call('POST', `/employees/${employee}/create-user`, c.users.admin.token, {
      username: 'New.Hire',
      email: 'new.hire@company.test',
      user_roles: [3, 4],
      lang: 'de',
      default_module: 'dashboard',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'SUCCESS',
      data: {
        user: {
          id: expect.any(Number),
          username: 'new.hire',
          email: 'new.hire@company.test',
          user_level: 'Employee',
          employee: String(employee),
        },
        email_status: 'sent',
      },
    });

    expect(smtp.messages).toHaveLength(1);
    const mail = smtp.messages[0];
    expect(mail.to).toEqual(['new.hire@company.test']);
    expect(mail.subject).toBe('Your My Company account');
    expect(mail.raw).toContain('https://hr.example.com');
    expect(mail.raw).toContain('Username: new.hire');
    expect(mail.password).toMatch(/^[A-Za-z0-9_-]{16}$/);

    const login = await t.app.inject({
      method: 'POST',
      url: '/app/api/oauth/token',
      payload: { grant_type: 'password', username: 'new.hire', password: mail.password },
    });
    expect(login.statusCode).toBe(200);
    const token = login.json().access_token as string;
    const blocked = await call('GET', '/employees/me', token);
    expect(blocked.json().error.code).toBe('PASSWORD_CHANGE_REQUIRED');
    const change = await call('POST', '/users/me/password', token, {
      current_password: mail.password,
      new_password: 'my-own-Secret-7',
    });
    expect(change.statusCode).toBe(200);
    expect((await call('GET', '/employees/me', token)).json().data.id).toBe(employee);

    const stored = await call('GET', `/users/${res.json().data.user.id}`, c.users.admin.token);
    expect(stored.json().data).toMatchObject({
      welcome_email_status: 'sent',
      user_roles: [3, 4],
      lang: 'de',
      default_module: 'dashboard',
      active: true,
    });
  });

  it('refuses bad calls with 400/403/404/409 and creates nothing: no user, no job, no e-mail', async () => {
    const employee = await newEmployee();
    await call('POST', `/employees/${employee}/create-user`, c.users.admin.token, {
      username: 'taken',
      email: 'taken@company.test',
    });
    const other = await newEmployee();
    const users = t.app.get<Repository<User>>(getRepositoryToken(User));
    const before = { users: await users.count(), mails: smtp.messages.length };
    const add = jest.spyOn(t.app.get(JobQueue), 'add');

    const cases: Array<[string, number, string, object, number, string]> = [
      ['non-admin', other, c.users.restricted.token, { username: 'a1', email: 'a1@x.test' }, 403, 'FORBIDDEN'],
      ['unknown employee', 999999, c.users.admin.token, { username: 'a2', email: 'a2@x.test' }, 404, 'NOT_FOUND'],
      ['missing username', other, c.users.admin.token, { email: 'a3@x.test' }, 400, 'VALIDATION_FAILED'],
      ['missing email', other, c.users.admin.token, { username: 'a4' }, 400, 'VALIDATION_FAILED'],
      ['invalid email', other, c.users.admin.token, { username: 'a5', email: 'nope' }, 400, 'VALIDATION_FAILED'],
      [
        'unknown level',
        other,
        c.users.admin.token,
        { username: 'a6', email: 'a6@x.test', user_level: 'King' },
        400,
        'VALIDATION_FAILED',
      ],
      ['username taken', other, c.users.admin.token, { username: 'TAKEN', email: 'a7@x.test' }, 409, 'USERNAME_TAKEN'],
      ['email taken', other, c.users.admin.token, { username: 'a8', email: 'Taken@company.test' }, 409, 'EMAIL_TAKEN'],
      ['employee has a user', employee, c.users.admin.token, { username: 'a9', email: 'a9@x.test' }, 409, 'USER_EXISTS'],
    ];
    for (const [name, id, token, body, status, code] of cases) {
      const res = await call('POST', `/employees/${id}/create-user`, token, body);
      expect([name, res.statusCode, res.json().error.code]).toEqual([name, status, code]);
    }
    expect(await users.count()).toBe(before.users);
    expect(add).not.toHaveBeenCalled();
    await sleep(200);
    expect(smtp.messages.length).toBe(before.mails);
    add.mockRestore();
  });

  it('two concurrent create-users for one employee: one user, the other 409 USER_EXISTS', async () => {
    const employee = await newEmployee();
    const [a, b] = await Promise.all([
      call('POST', `/employees/${employee}/create-user`, c.users.admin.token, { username: 'twin1', email: 'twin1@company.test' }),
      call('POST', `/employees/${employee}/create-user`, c.users.admin.token, { username: 'twin2', email: 'twin2@company.test' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect([a, b].find((r) => r.statusCode === 409)!.json().error.code).toBe('USER_EXISTS');
  });

  it('never shows a temporary password in a response or a log line', async () => {
    const employee = await newEmployee();
    await call('POST', `/employees/${employee}/create-user`, c.users.admin.token, {
      username: 'quiet',
      email: 'quiet@company.test',
      user_level: 'Manager',
    });
    const passwords = smtp.messages.map((m) => m.password).filter((p): p is string => !!p);
    expect(passwords.length).toBeGreaterThanOrEqual(2);
    const logs = t.logs.join('\n');
    expect(logs).toMatch(/welcome e-mail sent \(mail \d+, welcome \d+, attempt 1\)/);
    for (const p of passwords) {
      expect(logs).not.toContain(p);
      for (const b of bodies) expect(b).not.toContain(p);
    }
  });
});

describe('create-user when the e-mail cannot be delivered', () => {
  /**
   * A user made while the SMTP server refuses every recipient with `code`: the response's
   * email_status is not_sent, then the test's `check` runs once the user is recorded not_sent.
   */
  const refusedWith = async (code: number, username: string, check: (smtp: SmtpSink) => Promise<void>) => {
    const smtp = await startSmtp({ rejectCode: code });
    const t = await createTestApp({ SMTP_URL: smtp.url, MAIL_STATUS_WAIT_MS: '5000', MAIL_RETRY_BACKOFF_MS: '50' });
    try {
      const c = await buildCompany(t.app);
      const call = apiCaller(t.app);
      const employee = (await call('POST', '/employees', c.users.admin.token, employeeBody())).json().data.id;
      const res = await call('POST', `/employees/${employee}/create-user`, c.users.admin.token, {
        username,
        email: `${username}@company.test`,
      });
      expect(res.json().data.email_status).toBe('not_sent');
      const userId = res.json().data.user.id;
      await until(
        async () => (await call('GET', `/users/${userId}`, c.users.admin.token)).json().data.welcome_email_status === 'not_sent',
        10_000,
      );
      await check(smtp);
    } finally {
      await t.close();
      await smtp.close();
    }
  };

  it('SMTP 451 (try again later): email_status not_sent, retried with backoff, finally recorded as not_sent', async () => {
    await refusedWith(451, 'bounce', async (smtp) => {
      // 5 attempts: 50 + 100 + 200 + 400 ms of backoff between them; recorded after the last.
      await sleep(300);
      expect(smtp.attempts).toBe(5);
      expect(smtp.messages).toHaveLength(0);
    });
  });

  it('SMTP 550 (refused for good): one attempt, not retried, recorded as not_sent, as payslip and notification e-mails', async () => {
    await refusedWith(550, 'refused', async (smtp) => {
      await sleep(500); // four backoffs' worth: time for a retry, should there be one
      expect(smtp.attempts).toBe(1);
    });
  });

  it('unreachable SMTP server: not_sent within the wait bound', async () => {
    const port = await closedPort();
    const t = await createTestApp({
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_STATUS_WAIT_MS: '3000',
      MAIL_RETRY_BACKOFF_MS: '60000',
    });
    try {
      const c = await buildCompany(t.app);
      const call = apiCaller(t.app);
      const employee = (await call('POST', '/employees', c.users.admin.token, employeeBody())).json().data.id;
      const started = Date.now();
      const res = await call('POST', `/employees/${employee}/create-user`, c.users.admin.token, {
        username: 'far',
        email: 'far@company.test',
      });
      expect(res.json().data.email_status).toBe('not_sent');
      expect(Date.now() - started).toBeLessThan(3000 + 1000);
    } finally {
      await t.close();
    }
  });

  it('no SMTP_URL: email_status none, no job, and the user is recorded as none', async () => {
    const t = await createTestApp();
    try {
      const c = await buildCompany(t.app);
      const call = apiCaller(t.app);
      const add = jest.spyOn(t.app.get(JobQueue), 'add');
      const employee = (await call('POST', '/employees', c.users.admin.token, employeeBody())).json().data.id;
      const res = await call('POST', `/employees/${employee}/create-user`, c.users.admin.token, {
        username: 'nomail',
        email: 'nomail@company.test',
      });
      expect(res.json().data.email_status).toBe('none');
      expect(add).not.toHaveBeenCalled();
      const user = await call('GET', `/users/${res.json().data.user.id}`, c.users.admin.token);
      expect(user.json().data.welcome_email_status).toBe('none');
    } finally {
      await t.close();
    }
  });
});
