import { seedDemo } from '../src/database/seeds/demo.seed';
import { bearer, createTestApp, TestApp } from './helpers/test-app';

describe('tmp', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({}, { enableApi: false })));
  afterAll(() => t.close());
  it('prints', async () => {
    const first = await seedDemo(t.app);
    const admin = bearer(first.accessToken);
    const get = async (url: string) => (await t.app.inject({ method: 'GET', url: `/app/api${url}`, headers: admin })).json().data;
    const payrolls = await get('/payroll_config/payrolls');
    console.log('PAYROLLS', JSON.stringify(payrolls.map((p: any) => [p.id, p.name, p.status])));
    const d = await get(`/payroll_config/payrolls/${payrolls[0].id}/diff?limit=500`);
    console.log('DIFF', JSON.stringify(d, null, 1));
    const s = await get(`/payroll_config/payrolls/${payrolls[0].id}/diff/summary`);
    console.log('SUMMARY', JSON.stringify(s));
    const cols = (await get(`/payroll_config/payrolls/${payrolls[0].id}/data?limit=1`)).columns;
    const col = (n: string) => cols.find((c: any) => c.name === n).id;
    const emps = [...new Set(d.map((r: any) => r.employee))];
    for (const [e, c] of [[emps[0], 'Leave encashment'], [emps[1], 'Income tax'], [emps[2], 'Overtime pay']] as const) {
      const x = await get(`/payroll_config/payrolls/${payrolls[0].id}/cells/${e}/${col(c)}/explain`);
      console.log('EXPLAIN', JSON.stringify(x, null, 1));
    }
  }, 120000);
});
