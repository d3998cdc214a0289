import { buildCompany, Company } from './helpers/company';
import { apiCaller, createTestApp, TestApp } from './helpers/test-app';

/** Employee documents (issue 28, API.md §14): the document types. */
describe('document types', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
  });
  afterAll(() => t.close());

  it('Admins create them with defaults (reminders 30, 7, 1; visible to the employee only); everyone reads', async () => {
    const admin = c.users.admin.token;
    const passport = await call('POST', '/document-types', admin, {
      name: 'Passport',
      expires: true,
      notify_days_before: [7, 90, 30],
    });
    expect(passport.statusCode).toBe(200);
    expect(passport.json().data).toEqual({
      id: expect.any(Number),
      name: 'Passport',
      expires: true,
      notify_days_before: [90, 30, 7],
      visible_to_employee: true,
      visible_to_manager: false,
      employee_may_upload: false,
    });
    const contract = (await call('POST', '/document-types', admin, { name: 'Contract', visible_to_manager: true })).json().data;
    expect(contract).toMatchObject({ expires: false, notify_days_before: [30, 7, 1], visible_to_manager: true });

    const changed = await call('PUT', `/document-types/${contract.id}`, admin, { employee_may_upload: true });
    expect(changed.json().data).toMatchObject({
      employee_may_upload: true,
      visible_to_manager: true,
      notify_days_before: [30, 7, 1],
    });

    const read = await call('GET', '/document-types?filters=%7B%22expires%22%3Atrue%7D', c.users.employee.token);
    expect(read.statusCode).toBe(200);
    expect(read.json().data.map((d: { name: string }) => d.name)).toEqual(['Passport']);
    expect((await call('POST', '/document-types', c.users.restricted.token, { name: 'Visa' })).statusCode).toBe(403);
  });

  it('refuses a duplicate name (409) and reminders that are not 0-365 whole days, at most 10, each once', async () => {
    const admin = c.users.admin.token;
    await call('POST', '/document-types', admin, { name: 'Work permit', expires: true });
    expect((await call('POST', '/document-types', admin, { name: 'Work permit' })).statusCode).toBe(409);
    for (const notify_days_before of [[-1], [400], [1.5], [7, 7], Array.from({ length: 11 }, (_, i) => i), '30']) {
      const res = await call('POST', '/document-types', admin, {
        name: `Bad ${JSON.stringify(notify_days_before)}`,
        notify_days_before,
      });
      expect({ notify_days_before, status: res.statusCode, field: res.json().error?.details?.[0]?.field }).toEqual({
        notify_days_before,
        status: 400,
        field: 'notify_days_before',
      });
    }
  });
});
