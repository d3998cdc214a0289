import { Injectable, OnModuleInit } from '@nestjs/common';
import { declareTaskSources } from '../../common/outbox/task-sources';
import { declareNotificationKinds } from '../../common/outbox/notification-kinds';
import { Reactions } from '../../common/outbox/reactions';
import '../payroll.events';
import { PayslipDeliveriesRepository } from './payslip-deliveries.repository';
import { PayrollRunsService } from '../runs/payroll-runs.service';

declareTaskSources('payroll-review', 'payroll-failed', 'payslip-delivery');

declareNotificationKinds({
  'payroll.failed': { description: 'a payroll failed to process', email: true, inApp: true },
  'payslip.sent': { description: 'your payslip was e-mailed to you', email: false, inApp: true, mandatory: true },
});

/**
 * What the payroll events do (issue 42): the Admins' review, failure and delivery tasks; the
 * Admins and the department's HR hear of a failed run; an employee hears of its payslip e-mail.
 */
@Injectable()
export class PayrollReactions implements OnModuleInit {
  constructor(
    private readonly reactions: Reactions,
    private readonly payrolls: PayrollRunsService,
    private readonly deliveries: PayslipDeliveriesRepository,
  ) {}

  onModuleInit(): void {
    this.reactions.on('payroll.processed', {
      tasks: async (p) => ({
        complete: [{ source: 'payroll-failed', sourceIds: [p.id] }],
        open: [
          {
            source: 'payroll-review',
            sourceId: p.id,
            to: [{ admins: true }],
            title: `Review payroll ${p.id} and generate its payslips`,
            description: `${p.employees} employees processed: check the data grid, then POST /payroll_config/payrolls/${p.id}/generate-payslips.`,
            link: `/payroll_config/payrolls/${p.id}/data`,
          },
        ],
      }),
    });
    this.reactions.on('payroll.failed', {
      notify: async (p) => {
        const payroll = await this.payrolls.summaryOf(p.id);
        if (!payroll) return null;
        return {
          to: [{ admins: true }, { hrOfDepartment: payroll.department }],
          title: `Payroll ${payroll.name} failed`,
          body: `Processing payroll ${payroll.name} failed with ${p.errors} errors. See its errors, correct and process it again.`,
          link: `/payroll_config/payrolls/${p.id}/errors`,
        };
      },
      tasks: async (p) => ({
        open: [
          {
            source: 'payroll-failed',
            sourceId: p.id,
            to: [{ admins: true }],
            title: `Payroll ${p.id} failed to process`,
            description: `${p.errors} errors: read them, fix the columns or salaries, and process it again.`,
            priority: 'High',
            link: `/payroll_config/payrolls/${p.id}/errors`,
          },
        ],
      }),
    });
    this.reactions.on('payroll.completed', {
      tasks: async (p) => ({ complete: [{ source: 'payroll-review', sourceIds: [p.id] }] }),
    });
    this.reactions.on('payslip.sent', {
      notify: async (p) => {
        const payroll = await this.payrolls.summaryOf(p.payroll);
        return {
          to: [{ usersOf: p.employee }],
          title: 'Your payslip is in your inbox',
          body: `Your payslip${payroll ? ` for ${payroll.name}` : ''} was e-mailed to you; it is also among your documents.`,
          link: `/employees/${p.employee}/payslips/${p.id}`,
        };
      },
      // The payroll's delivery task is done once none of its payslips has failed.
      tasks: async (p) =>
        (await this.deliveries.failedIn(p.payroll)) ? {} : { complete: [{ source: 'payslip-delivery', sourceIds: [p.payroll] }] },
    });
    this.reactions.on('payslip.failed', {
      tasks: async (p) => {
        if (!(await this.deliveries.failedIn(p.payroll)))
          return { complete: [{ source: 'payslip-delivery', sourceIds: [p.payroll] }] };
        return {
          open: [
            {
              source: 'payslip-delivery',
              sourceId: p.payroll,
              to: [{ admins: true }],
              title: `Payslip e-mails of payroll ${p.payroll} failed`,
              description:
                `The payslips with delivery_status failed say why (GET /payroll_config/payrolls/${p.payroll}/payslips?filters={"delivery_status":"failed"}); ` +
                `fix the address or the mail server and send them again (POST .../payslips/{payslipId}/send).`,
              priority: 'High',
              link: `/payroll_config/payrolls/${p.payroll}/payslips`,
            },
          ],
        };
      },
    });
  }
}
