import { describeIf, NEEDS_SERVERS } from './helpers/skip';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import { AppModule } from '../src/app.module';
import { INTEGRATION, TestApp, apiCaller, createTestApp, sleep } from './helpers/test-app';
import { buildCompany, employeeBody } from './helpers/company';
import { SmtpSink, startSmtp } from './helpers/smtp';

/**
 * Bull on Redis with a separate worker: the API process does not consume (QUEUE_CONSUMER=false).
 * Without Redis there is no separate worker to stop, so this runs under `npm run test:integration`.
 */
describeIf(INTEGRATION, NEEDS_SERVERS)('welcome e-mail with the worker down, then up', () => {
  let smtp: SmtpSink;
  let api: TestApp;
  let worker: INestApplicationContext | undefined;

  beforeAll(async () => {
    smtp = await startSmtp();
    api = await createTestApp({
      SMTP_URL: smtp.url,
      MAIL_STATUS_WAIT_MS: '1000',
      MAIL_RETRY_BACKOFF_MS: '200',
      QUEUE_CONSUMER: 'false',
      QUEUE_PREFIX: `${process.env.QUEUE_PREFIX ?? 'hr'}:worker-${randomUUID().slice(0, 8)}`,
    });
  });
  afterAll(async () => {
    await worker?.close();
    await api.close();
    await smtp.close();
  });

  it('answers not_sent after the wait bound, and the worker delivers the e-mail exactly once when it starts', async () => {
    const c = await buildCompany(api.app);
    const call = apiCaller(api.app);
    const employee = (await call('POST', '/employees', c.users.admin.token, employeeBody())).json().data.id;
    const started = Date.now();
    const res = await call('POST', `/employees/${employee}/create-user`, c.users.admin.token, {
      username: 'late',
      email: 'late@company.test',
    });
    expect(res.json().data.email_status).toBe('not_sent');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    await sleep(500);
    expect(smtp.messages).toHaveLength(0);

    // `npm run worker`: the same modules, consuming, no HTTP.
    worker = await NestFactory.createApplicationContext(AppModule.forRoot({ ...api.config, queueConsumer: true }), {
      logger: false,
    });
    await worker.init();
    for (let i = 0; i < 100 && smtp.messages.length === 0; i++) await sleep(50);
    await sleep(1000); // time for a duplicate, should there be one
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0].to).toEqual(['late@company.test']);
    const login = await api.app.inject({
      method: 'POST',
      url: '/app/api/oauth/token',
      payload: { grant_type: 'password', username: 'late', password: smtp.messages[0].password },
    });
    expect(login.statusCode).toBe(200);
    const user = await call('GET', `/users/${res.json().data.user.id}`, c.users.admin.token);
    expect(user.json().data.welcome_email_status).toBe('sent');
  });
});
