import { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApprovalPoliciesService } from '../../approvals/approval-policies.service';
import { AuthUser } from '../../common/auth/auth-user';
import { CompanyClock } from '../../common/time/company-clock';
import { DocumentTypesService } from '../../documents/document-types.service';
import { GeneratedDocumentsService } from '../../documents/generated-documents.service';
import { Employee } from '../../employees/entities/employee.entity';
import { ExpenseCategory, ExpenseItem } from '../../expenses/entities/expense.entities';
import { ExpenseClaimsReader } from '../../expenses/expense-claims.reader';
import { ExpenseClaimsService } from '../../expenses/expense-claims.service';
import { ExpensesSetupService } from '../../expenses/expenses-setup.service';
import { Department } from '../../reference/entities/reference.entities';
import { DEMO_EMPLOYEE_EMPLOYEE } from './demo-company';
import { textPdf } from './demo-pdf';

/** The first day of the month `back` months before `now`'s, plus `day - 1` days ('YYYY-MM-DD'). */
const dayOf = (now: Date, back: number, day: number) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, day)).toISOString().slice(0, 10);

/**
 * The demo's expenses (issue 68, docs/api/expenses.md): three categories, USD and GBP rates for the
 * last three months, an approval policy for claims from 1 000 EUR, and claims of the demo Employee
 * in every state: one approved the month before last (paid by that month's payroll when it
 * completes, seeded after this), one approved last month (last month's Processed payroll reads it),
 * one Submitted in USD waiting for the demo Manager, a Draft, a Rejected and a Cancelled one, and a
 * Sales employee's claim in EUR converted into its GBP payroll currency and paid outside payroll.
 * Decisions are taken on their days (the company clock moved, then back). Idempotent.
 */
export async function seedDemoExpenses(app: INestApplicationContext, actor: AuthUser): Promise<void> {
  const ds = app.get(DataSource);
  if (await ds.getRepository(ExpenseCategory).exists({ where: { name: 'Travel' } })) return;
  const setup = app.get(ExpensesSetupService);
  const claims = app.get(ExpenseClaimsService);
  const clock = app.get(CompanyClock);
  const now = clock.now();

  const travel = (
    await setup.categories.create({ name: 'Travel', account: '6400', max_amount: '1500.00', requires_receipt: true })
  ).id;
  const meals = (await setup.categories.create({ name: 'Meals', account: '6410', max_amount: '60.00' })).id;
  const hotel = (await setup.categories.create({ name: 'Accommodation', account: '6420', requires_receipt: true })).id;
  for (const [back, usd, gbp] of [
    [2, '0.9210', '1.1740'],
    [1, '0.9315', '1.1690'],
    [0, '0.9402', '1.1805'],
  ] as const) {
    await setup.rates.create({ currency: 'USD', date: dayOf(now, back, 1), rate: usd });
    await setup.rates.create({ currency: 'GBP', date: dayOf(now, back, 1), rate: gbp });
  }
  await app.get(ApprovalPoliciesService).createPolicy({
    name: 'Expenses from 1 000 EUR',
    applies_to: 'expense',
    conditions: { min_amount: '1000.00' },
    steps: [
      { approvers: ['supervisor'], mode: 'any' },
      { approvers: ['admins'], mode: 'any' },
    ],
  });

  const employee = await ds.getRepository(Employee).findOneOrFail({ where: { employeeId: DEMO_EMPLOYEE_EMPLOYEE } });
  const sales = await ds.getRepository(Department).findOneOrFail({ where: { name: 'Sales' } });
  const seller = await ds.getRepository(Employee).findOneOrFail({ where: { departmentId: sales.id }, order: { id: 'DESC' } });
  const receiptType = await app.get(DocumentTypesService).byCode('receipt');
  const documents = app.get(GeneratedDocumentsService);
  /** A receipt for each item of a category that requires one: a small PDF, the item pointing at it. */
  const receipts = async (claimId: number, owner: Employee) => {
    const view = await app.get(ExpenseClaimsReader).get(actor, claimId);
    for (const item of view.items) {
      if (item.category !== travel && item.category !== hotel) continue;
      const content = textPdf(['Receipt', item.description, `${item.date}: ${item.amount} ${item.currency}`]);
      await documents.storeGenerated(
        owner.id,
        receiptType.id,
        { content, fileName: `receipt-${item.id}.pdf`, contentType: 'application/pdf' },
        { name: `Receipt: ${view.title}, ${item.date} ${item.description}`, uploadedBy: actor.id },
        (em, documentId) => em.getRepository(ExpenseItem).update({ id: item.id }, { receiptDocumentId: documentId }),
      );
    }
  };
  /** On `day` at noon as the company's clock has it, then back to where the clock was (a test's moved one too). */
  const on = async <T>(day: string, work: () => Promise<T>): Promise<T> => {
    const offset = clock.now().getTime() - Date.now();
    clock.moveTo(new Date(`${day}T12:00:00Z`));
    try {
      return await work();
    } finally {
      clock.moveTo(offset === 0 ? null : new Date(Date.now() + offset));
    }
  };
  const claim = async (owner: Employee, title: string, items: Array<[number, string, string, string, string?]>) => {
    const made = await claims.create(actor, {
      employee: owner.id,
      title,
      items: items.map(([category, date, description, amount, currency]) => ({ category, date, description, amount, currency })),
    });
    await receipts(made.id, owner);
    return made.id;
  };

  // Approved the month before last: that month's payroll pays it when it completes.
  const hamburg = await claim(employee, 'Client workshop, Hamburg', [
    [travel, dayOf(now, 2, 12), 'Train Berlin–Hamburg and back', '89.90'],
    [hotel, dayOf(now, 2, 12), 'Hotel, 2 nights', '238.00'],
    [meals, dayOf(now, 2, 13), 'Dinner with the client team', '48.50'],
  ]);
  await on(dayOf(now, 2, 16), () => claims.submit(actor, hamburg));
  await on(dayOf(now, 2, 18), () => claims.decide(actor, hamburg, 'Approved', 'Thanks, approved.'));
  // Approved last month, in pounds: last month's payroll (Processed) reads it.
  const london = await claim(employee, 'Conference, London', [
    [travel, dayOf(now, 1, 8), 'Flight to London', '164.20', 'GBP'],
    [hotel, dayOf(now, 1, 8), 'Conference hotel, 1 night', '189.00', 'GBP'],
    [meals, dayOf(now, 1, 9), 'Lunch', '21.40', 'GBP'],
  ]);
  await on(dayOf(now, 1, 12), () => claims.submit(actor, london));
  await on(dayOf(now, 1, 14), () => claims.decide(actor, london, 'Approved', null));
  // Submitted this month, in dollars: waits for the demo Manager (its inbox and tasks).
  const newYork = await claim(employee, 'Customer visit, New York', [
    [travel, dayOf(now, 0, 1), 'Flight to New York', '612.00', 'USD'],
    [meals, dayOf(now, 0, 2), 'Dinner', '54.80', 'USD'],
  ]);
  await claims.submit(actor, newYork);
  // Rejected last month (over the Meals ceiling), Cancelled, and a Draft.
  const dinner = await claim(employee, 'Team dinner', [[meals, dayOf(now, 1, 20), 'Team dinner, 4 people', '58.00']]);
  await on(dayOf(now, 1, 21), () => claims.submit(actor, dinner));
  await on(dayOf(now, 1, 22), () => claims.decide(actor, dinner, 'Rejected', 'Please claim each person’s meal on its own item.'));
  const taxi = await claim(employee, 'Taxi to the airport', [[travel, dayOf(now, 1, 25), 'Taxi', '42.00']]);
  await claims.cancel(actor, taxi);
  await claim(employee, 'Offsite supplies', [[meals, dayOf(now, 0, 1), 'Coffee and snacks', '36.75']]);
  // A Sales employee (GBP payroll) in euros, paid outside payroll by bank transfer.
  const paris = await claim(seller, 'Trade fair, Paris', [
    [travel, dayOf(now, 1, 3), 'Eurostar London–Paris', '245.00', 'EUR'],
    [hotel, dayOf(now, 1, 3), 'Hotel, 3 nights', '411.00', 'EUR'],
  ]);
  await on(dayOf(now, 1, 6), () => claims.submit(actor, paris));
  await on(dayOf(now, 1, 7), () => claims.decide(actor, paris, 'Approved', null));
  await on(dayOf(now, 1, 10), () => claims.pay(actor, paris, { reference: `TRF-${dayOf(now, 1, 10)}-PARIS` }));
}
