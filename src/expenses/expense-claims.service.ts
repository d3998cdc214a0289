import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { ApprovalsService } from '../approvals/approvals.service';
import { recordAudit } from '../common/audit/audit-log';
import { AuthUser } from '../common/auth/auth-user';
import { DomainException, ValidationException } from '../common/errors/domain.exception';
import { CompanyClock } from '../common/time/company-clock';
import { EmployeeAccessService, employeeRef } from '../employees/core/employee-access.service';
import { withEmployeeLock } from '../employees/core/employee-lock';
import { PayrollEmployeesService } from '../payroll/config/payroll-employees.service';
import {
  CreateExpenseClaimDto,
  ExpenseClaimDto,
  ExpenseItemInputDto,
  PayExpenseClaimDto,
  UpdateExpenseClaimDto,
} from './dto/expense-claims.dto';
import { ExpenseClaim, ExpenseItem } from './entities/expense.entities';
import { ExpenseClaimAction, EXPENSE_CLAIM_STATES } from './expense-claims.states';
import { ExpenseClaimsRepository } from './expense-claims.repository';
import { ExpenseClaimsReader } from './expense-claims.reader';
import { claimFacts, itemProblems, itemRow, shown, submitProblems, totalOf } from './expense-items';
import { ExpensesSetupService } from './expenses-setup.service';
import { convert } from './exchange-rates';
import './expenses.events';

/** The events a claim's moves record: a submission, a decision (a cancellation too), a payment. */
type ClaimEvent = 'expense.submitted' | 'expense.decided' | 'expense.paid';

/** What an approver's inbox says of a claim: "Expense claim: Customer visit, Lyon (230.77 EUR)". */
const summaryOf = (c: ExpenseClaim) => `Expense claim: ${c.title} (${shown(c.total, c.currency)} ${c.currency})`;

/**
 * Expense claims (issue 68, docs/api/expenses.md): the employee (or an administrator of it) writes a
 * Draft of items in any currency, converted at each item's day into the claim's currency; a submit
 * starts the approval chain of kind `expense`; its approvers (never the claimant) decide it; an
 * Approved claim is paid by a payroll's completion (expenses.payroll-inputs) or by an Admin outside payroll.
 */
@Injectable()
export class ExpenseClaimsService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly reader: ExpenseClaimsReader,
    private readonly access: EmployeeAccessService,
    private readonly repository: ExpenseClaimsRepository,
    private readonly setup: ExpensesSetupService,
    private readonly approvals: ApprovalsService,
    private readonly payrollEmployees: PayrollEmployeesService,
    private readonly clock: CompanyClock,
  ) {}

  async create(caller: AuthUser, dto: CreateExpenseClaimDto): Promise<ExpenseClaimDto> {
    const employeeId = await this.access.subjectOf(caller, dto.employee, ['Admin', 'Restricted Admin']);
    const currency = (await this.payrollEmployees.currencyOf(employeeId)) ?? (await this.setup.companyCurrency());
    const claim = Object.assign(new ExpenseClaim(), { employeeId, title: dto.title, currency, status: 'Draft', total: '0' });
    const saved = await withEmployeeLock(this.ds, employeeId, async (em) => {
      claim.id = (await em.getRepository(ExpenseClaim).insert(claim)).identifiers[0].id as number;
      await this.writeItems(em, claim, dto.items ?? [], new Map());
      const after = await em.getRepository(ExpenseClaim).findOneByOrFail({ id: claim.id });
      await recordAudit(em, {
        action: 'create',
        resource: 'expense-claims',
        resourceId: after.id,
        employee: employeeId,
        after: claimFacts(after),
      });
      return after;
    });
    return this.reader.view(saved);
  }

  async update(caller: AuthUser, id: number, dto: UpdateExpenseClaimDto): Promise<ExpenseClaimDto> {
    const { claim } = await this.reader.editable(caller, id, 'change');
    const saved = await withEmployeeLock(this.ds, claim.employeeId, async (em) => {
      const current = await em.getRepository(ExpenseClaim).findOneByOrFail({ id });
      EXPENSE_CLAIM_STATES.assert('change', current.status);
      if (dto.title !== undefined) current.title = dto.title;
      current.status = 'Draft'; // a corrected Rejected claim starts over
      await em.getRepository(ExpenseClaim).update({ id }, { title: current.title, status: 'Draft' });
      if (dto.items !== undefined) {
        const existing = (await this.repository.itemsOf([id], em)).get(id) ?? [];
        await this.writeItems(em, current, dto.items, new Map(existing.map((i) => [i.id, i])));
      }
      const after = await em.getRepository(ExpenseClaim).findOneByOrFail({ id });
      await recordAudit(em, {
        action: 'update',
        resource: 'expense-claims',
        resourceId: id,
        employee: claim.employeeId,
        before: claimFacts(claim),
        after: claimFacts(after),
      });
      return after;
    });
    return this.reader.view(saved);
  }

  async remove(caller: AuthUser, id: number): Promise<{ id: number }> {
    const { claim } = await this.reader.editable(caller, id, 'delete');
    await withEmployeeLock(this.ds, claim.employeeId, async (em) => {
      const deleted = await em.getRepository(ExpenseClaim).delete({ id, status: In(EXPENSE_CLAIM_STATES.from('delete')) });
      if (!deleted.affected)
        throw EXPENSE_CLAIM_STATES.invalid(
          'delete',
          (await em.getRepository(ExpenseClaim).findOneBy({ id }))?.status ?? claim.status,
        );
      await recordAudit(em, {
        action: 'delete',
        resource: 'expense-claims',
        resourceId: id,
        employee: claim.employeeId,
        before: claimFacts(claim),
      });
    });
    return { id };
  }

  /** Draft or Rejected → Submitted: every item within its category's ceiling and with its required receipt; the chain starts. */
  async submit(caller: AuthUser, id: number): Promise<ExpenseClaimDto> {
    const { claim } = await this.reader.editable(caller, id, 'submit');
    const items = (await this.repository.itemsOf([id])).get(id) ?? [];
    const problems = submitProblems(claim, items, await this.repository.categories(items.map((i) => i.categoryId)));
    if (problems.length) throw new ValidationException(problems);
    // Policies compare amounts in the company currency, at today's rate.
    const company = await this.setup.companyCurrency();
    const today = await this.clock.today();
    const amount = convert(claim.total, await this.setup.rateOn(claim.currency, company, today), company);
    const after = await withEmployeeLock(this.ds, claim.employeeId, async (em) => {
      const moved = await this.move(
        em,
        claim,
        'submit',
        { submittedAt: this.clock.now(), decidedAt: null, approvedOn: null },
        { event: 'expense.submitted' },
      );
      await this.approvals.start(em, {
        kind: 'expense',
        requestId: id,
        employeeId: claim.employeeId,
        leaveTypeId: null,
        days: null,
        amount,
        summary: summaryOf(moved),
      });
      return moved;
    });
    return this.reader.view(after);
  }

  /** A decision on the open step of the claim's chain: the last step's approval or any rejection moves the claim. */
  async decide(caller: AuthUser, id: number, to: 'Approved' | 'Rejected', comment?: string | null): Promise<ExpenseClaimDto> {
    const { claim, employee } = await this.reader.load(caller, id);
    if (caller.employeeId === claim.employeeId)
      throw new DomainException('FORBIDDEN', 'You cannot decide your own expense claims');
    const administers = await this.access.administers(caller, employeeRef(employee));
    const expectedStep = await this.approvals.openStep('expense', id);
    const action = to === 'Approved' ? 'approve' : 'reject';
    const after = await withEmployeeLock(this.ds, claim.employeeId, async (em) => {
      const current = await em.getRepository(ExpenseClaim).findOneByOrFail({ id });
      EXPENSE_CLAIM_STATES.assert(action, current.status);
      const chain = await this.approvals.decide(em, 'expense', current, caller, action, {
        administers,
        comment,
        expectedStep,
        summary: async () => summaryOf(current),
      });
      if (chain === 'Pending') return current;
      const now = this.clock.now();
      const decided = { decidedAt: now, approvedOn: to === 'Approved' ? await this.clock.today(now) : null };
      return this.move(em, current, action, decided, { event: 'expense.decided' });
    });
    return this.reader.view(after);
  }

  /** Anything not Paid → Cancelled (the employee or an administrator of it): its chain ends, a payroll processed with it must be processed again. */
  async cancel(caller: AuthUser, id: number): Promise<ExpenseClaimDto> {
    const { claim } = await this.reader.editable(caller, id, 'cancel');
    const after = await withEmployeeLock(this.ds, claim.employeeId, async (em) => {
      const current = await em.getRepository(ExpenseClaim).findOneByOrFail({ id });
      await this.approvals.cancel(em, 'expense', id);
      return this.move(em, current, 'cancel', {}, { event: 'expense.decided' });
    });
    return this.reader.view(after);
  }

  /** Approved → Paid outside payroll (an administrator of the employee), with the payment's reference. */
  async pay(caller: AuthUser, id: number, dto: PayExpenseClaimDto): Promise<ExpenseClaimDto> {
    const { claim, employee } = await this.reader.load(caller, id);
    if (caller.employeeId === claim.employeeId || !(await this.access.administers(caller, employeeRef(employee))))
      throw new DomainException('FORBIDDEN', 'Only an Admin of the employee marks its claims paid');
    const after = await withEmployeeLock(this.ds, claim.employeeId, async (em) => {
      const current = await em.getRepository(ExpenseClaim).findOneByOrFail({ id });
      return this.move(em, current, 'pay', { paidReference: dto.reference, paidAt: this.clock.now() }, { event: 'expense.paid' });
    });
    return this.reader.view(after);
  }

  /** Replaces the claim's items by `inputs` (those naming an id keep it and their receipt), each converted at its day's rate; the total follows. */
  private async writeItems(
    em: EntityManager,
    claim: ExpenseClaim,
    inputs: ExpenseItemInputDto[],
    existing: ReadonlyMap<number, ExpenseItem>,
  ): Promise<void> {
    const categories = await this.repository.categories(inputs.map((i) => i.category));
    const problems = itemProblems(inputs, categories, new Set(existing.keys()), claim.currency);
    if (problems.length) throw new ValidationException(problems);
    const rates = new Map<string, string>();
    const rows = [];
    for (const [n, input] of inputs.entries()) {
      const from = input.currency ?? claim.currency;
      const key = `${from}:${input.date}`;
      if (!rates.has(key)) {
        try {
          rates.set(key, await this.setup.rateOn(from, claim.currency, input.date, em));
        } catch (err) {
          if (err instanceof ValidationException)
            throw ValidationException.field(`items.${n}.currency`, err.details?.[0]?.message ?? 'has no rate');
          throw err;
        }
      }
      rows.push({
        id: input.id,
        ...itemRow(input, n, claim, rates.get(key)!, input.id ? (existing.get(input.id)?.receiptDocumentId ?? null) : null),
      });
    }
    const repo = em.getRepository(ExpenseItem);
    const kept = new Set(rows.flatMap((r) => (r.id ? [r.id] : [])));
    const gone = [...existing.keys()].filter((itemId) => !kept.has(itemId));
    if (gone.length) await repo.delete({ id: In(gone) });
    for (const { id: itemId, ...row } of rows) {
      if (itemId) await repo.update({ id: itemId }, row);
      else await repo.insert(row);
    }
    await em.getRepository(ExpenseClaim).update(
      { id: claim.id },
      {
        total: totalOf(
          rows.map((r) => r.amountConverted),
          claim.currency,
        ),
      },
    );
  }

  /** Moves the claim by `action` (one conditional UPDATE; 409 naming its state when it moved meanwhile), with its audit and event. */
  private async move(
    em: EntityManager,
    claim: ExpenseClaim,
    action: ExpenseClaimAction,
    set: Partial<ExpenseClaim>,
    recorded: { event: ClaimEvent },
  ): Promise<ExpenseClaim> {
    EXPENSE_CLAIM_STATES.assert(action, claim.status);
    const repo = em.getRepository(ExpenseClaim);
    if (!(await EXPENSE_CLAIM_STATES.move(em, ExpenseClaim, { id: claim.id, status: claim.status }, action, set)))
      throw EXPENSE_CLAIM_STATES.invalid(action, (await repo.findOneBy({ id: claim.id }))?.status ?? claim.status);
    const after = await repo.findOneByOrFail({ id: claim.id });
    await recordAudit(em, {
      action,
      resource: 'expense-claims',
      event: recorded.event,
      resourceId: claim.id,
      employee: claim.employeeId,
      before: claimFacts(claim),
      after: claimFacts(after),
    });
    return after;
  }
}
