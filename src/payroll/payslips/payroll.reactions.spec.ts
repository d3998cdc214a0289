import { Reactions } from '../../common/outbox/reactions';
import { PayrollReactions } from './payroll.reactions';
import { PayslipDeliveriesRepository } from './payslip-deliveries.repository';
import { PayrollRunsService } from '../runs/payroll-runs.service';

/** What the payroll events do (issue 42), without a database: the reactions with their two reads stubbed. */
describe('payroll reactions', () => {
  let failed = 0;
  const reactions = new Reactions();
  new PayrollReactions(
    reactions,
    { summaryOf: async (id: number) => (id === 9 ? { name: 'November', department: 3 } : null) } as unknown as PayrollRunsService,
    { failedIn: async () => failed } as unknown as PayslipDeliveriesRepository,
  ).onModuleInit();
  const only = (event: string) => reactions.of(event)[0];
  const payslip = { id: 4, payroll: 9, employee: 7, delivery_status: 'failed', delivered_at: null, error: '550' };

  it('a failed run tells the Admins and the department HR and opens a task; a processed one completes it and opens the review', async () => {
    const run = { id: 9, status: 'Failed' as const, employees: 0, errors: 3 };
    expect(await only('payroll.failed').notify!(run as never, 'e1')).toEqual({
      to: [{ admins: true }, { hrOfDepartment: 3 }],
      title: 'Payroll November failed',
      body: 'Processing payroll November failed with 3 errors. See its errors, correct and process it again.',
      link: '/payroll_config/payrolls/9/errors',
    });
    expect(await only('payroll.failed').notify!({ ...run, id: 10 }, 'e1')).toBeNull(); // a payroll gone since
    expect(await only('payroll.failed').tasks!(run as never, 'e1')).toMatchObject({
      open: [{ source: 'payroll-failed', sourceId: 9, to: [{ admins: true }], priority: 'High' }],
    });
    expect(await only('payroll.processed').tasks!({ ...run, status: 'Processed', errors: 0 } as never, 'e2')).toMatchObject({
      complete: [{ source: 'payroll-failed', sourceIds: [9] }],
      open: [{ source: 'payroll-review', sourceId: 9 }],
    });
    expect(await only('payroll.completed').tasks!(run as never, 'e3')).toEqual({
      complete: [{ source: 'payroll-review', sourceIds: [9] }],
    });
  });

  it("a payslip e-mail that failed opens the payroll's delivery task while any has failed; the last one fixed completes it", async () => {
    failed = 2;
    expect(await only('payslip.failed').tasks!(payslip as never, 'e4')).toMatchObject({
      open: [{ source: 'payslip-delivery', sourceId: 9, to: [{ admins: true }] }],
    });
    expect(await only('payslip.sent').tasks!({ ...payslip, delivery_status: 'sent' }, 'e5')).toEqual({});
    failed = 0;
    expect(await only('payslip.sent').tasks!({ ...payslip, delivery_status: 'sent' }, 'e6')).toEqual({
      complete: [{ source: 'payslip-delivery', sourceIds: [9] }],
    });
    expect(await only('payslip.sent').notify!({ ...payslip, delivery_status: 'sent' }, 'e6')).toMatchObject({
      to: [{ usersOf: 7 }],
      title: 'Your payslip is in your inbox',
      body: expect.stringContaining('for November'),
    });
  });
});
