import { INestApplicationContext } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { testIban } from '../../common/banking/iban';
import { EmployeeBankAccount } from '../../employees/bank-accounts/bank-account.entity';
import { Employee } from '../../employees/entities/employee.entity';
import { PayrollAccount } from '../../payroll/books/books.entities';
import { PayrollColumn, PayrollEmployee } from '../../payroll/entities/payroll-config.entities';
import { COMPANY_BIC, COMPANY_IBAN } from '../../payroll/config/payroll.settings';
import { SettingsService } from '../../settings/settings.service';

/** Where each demo column posts: [debit, credit, cost centre]; null: not posted (hours, days, the gross subtotal). */
const CHART: Record<string, [string, string, 'none' | 'department'] | null> = {
  basic: ['6000 Salaries and wages', '4200 Payroll clearing', 'department'],
  allowances: ['6000 Salaries and wages', '4200 Payroll clearing', 'department'],
  overtime_pay: ['6000 Salaries and wages', '4200 Payroll clearing', 'department'],
  leave_encashment: ['6000 Salaries and wages', '4200 Payroll clearing', 'department'],
  arrears: ['6000 Salaries and wages', '4200 Payroll clearing', 'department'],
  unpaid_leave: ['4200 Payroll clearing', '6000 Salaries and wages', 'department'],
  tax: ['4200 Payroll clearing', '4310 Income tax payable', 'none'],
  net: ['4200 Payroll clearing', '4210 Net pay payable', 'none'],
};

/**
 * The books of the demo (issue 46): the company's account, a bank account for every employee on
 * payroll (valid test IBANs, as if imported when they joined: no notifications), and a chart of
 * accounts for every payroll column, so the Completed payroll's bank file, journal and register
 * download at once. Does nothing when accounts exist.
 */
export async function seedDemoBooks(app: INestApplicationContext): Promise<void> {
  const ds = app.get(DataSource);
  if (await ds.getRepository(PayrollAccount).exists()) return;
  const settings = app.get(SettingsService);
  await settings.set(COMPANY_IBAN, testIban(9_000_000_001));
  await settings.set(COMPANY_BIC, 'COBADEFFXXX');
  const onPayroll = (await ds.getRepository(PayrollEmployee).find({ select: { employeeId: true } })).map((p) => p.employeeId);
  const employees = await ds.getRepository(Employee).find({ where: { id: In(onPayroll) }, order: { id: 'ASC' } });
  await ds.getRepository(EmployeeBankAccount).insert(
    employees.map((e, i) => ({
      employeeId: e.id,
      iban: testIban(100_000 + e.id),
      bic: i % 2 ? 'COBADEFFXXX' : null,
      holderName: `${e.firstName} ${e.lastName}`,
      primary: true,
    })),
  );
  const columns = await ds.getRepository(PayrollColumn).find();
  await ds.getRepository(PayrollAccount).insert(
    columns.map((c) => {
      const posting = CHART[c.variable] ?? null;
      return {
        columnId: c.id,
        debitAccount: posting?.[0] ?? null,
        creditAccount: posting?.[1] ?? null,
        costCentre: posting?.[2] ?? 'none',
      };
    }),
  );
}
