import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { ApprovalsService } from '../approvals/approvals.service';
import { AuthUser } from '../common/auth/auth-user';
import { DomainException, NotFoundException } from '../common/errors/domain.exception';
import { ListSpec } from '../common/paging/list-request';
import { Page } from '../common/paging/page';
import { DecisionSubject, EmployeeAccessService, employeeRef } from '../employees/core/employee-access.service';
import { EmployeesRepository, RecordList } from '../employees/core/employees.repository';
import { ExpenseClaimDto } from './dto/expense-claims.dto';
import { EXPENSE_CLAIM_STATUSES, ExpenseClaim } from './entities/expense.entities';
import { ExpenseClaimAction, EXPENSE_CLAIM_STATES } from './expense-claims.states';
import { ExpenseClaimsRepository } from './expense-claims.repository';
import { shown, toItemDto } from './expense-items';

/** GET /expense-claims: newest first unless sorted otherwise. */
export const EXPENSE_CLAIM_LIST_SPEC: ListSpec = {
  idColumn: 'c.id',
  updatedAt: 'c.updated_at',
  defaultSort: { field: 'id', order: 'descend' },
  sortFields: { id: 'c.id', created_at: 'c.created_at', submitted_at: 'c.submitted_at' },
  filterFields: {
    employee: { column: 'c.employee_id', type: 'int' },
    status: { column: 'c.status', type: 'string', values: EXPENSE_CLAIM_STATUSES },
    paid_in: { column: 'c.paid_in', type: 'int' },
  },
};

/**
 * Reading claims (issue 68): who may see one (whoever sees its employee, and the approvers of its
 * chain), who may change one (its employee, an administrator of it), and the claims as the API
 * shows them, with their items and chains.
 */
@Injectable()
export class ExpenseClaimsReader {
  readonly list: RecordList<ExpenseClaimDto>;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @InjectRepository(ExpenseClaim) claims: Repository<ExpenseClaim>,
    employeeRecords: EmployeesRepository,
    private readonly access: EmployeeAccessService,
    private readonly repository: ExpenseClaimsRepository,
    private readonly approvals: ApprovalsService,
  ) {
    const rows = employeeRecords.recordList(claims, 'c', EXPENSE_CLAIM_LIST_SPEC, (c: ExpenseClaim) => c);
    // Each page with its items and chains: three queries a page.
    this.list = async (caller, query, employeeId) => this.views(await rows(caller, query, employeeId));
  }

  async get(caller: AuthUser, id: number): Promise<ExpenseClaimDto> {
    return this.view((await this.load(caller, id)).claim);
  }

  /** The claim if its employee or an administrator of it asks, and `action` may start from its state. */
  async editable(
    caller: AuthUser,
    id: number,
    action: ExpenseClaimAction,
  ): Promise<{ claim: ExpenseClaim; employee: DecisionSubject }> {
    const found = await this.load(caller, id);
    if (caller.employeeId !== found.claim.employeeId && !(await this.access.administers(caller, employeeRef(found.employee))))
      throw new DomainException('FORBIDDEN', 'Only the employee or an Admin of it changes its expense claims');
    EXPENSE_CLAIM_STATES.assert(action, found.claim.status);
    return found;
  }

  /** The claim as `em` reads it now (in a transaction that must see its state). */
  claimIn(em: EntityManager, id: number): Promise<ExpenseClaim | null> {
    return em.getRepository(ExpenseClaim).findOneBy({ id });
  }

  /** The claim with its employee, for whoever can see the employee or decides a step of it; else 404. */
  async load(caller: AuthUser, id: number): Promise<{ claim: ExpenseClaim; employee: DecisionSubject }> {
    const claim = await this.ds.getRepository(ExpenseClaim).findOneBy({ id });
    const employee =
      claim &&
      ((await this.access.forDecision(caller, claim.employeeId)) ??
        ((await this.approvals.involves('expense', id, caller.employeeId))
          ? await this.access.employee(claim.employeeId)
          : null));
    if (!claim || !employee) throw new NotFoundException('Expense claim');
    return { claim, employee };
  }

  async view(claim: ExpenseClaim): Promise<ExpenseClaimDto> {
    return (await this.views(new Page([claim], 1, 1, 1))).items[0];
  }

  /** Claims as the API shows them, with their items and chains (two queries, whatever the number). */
  async views(page: Page<ExpenseClaim>): Promise<Page<ExpenseClaimDto>> {
    const ids = page.items.map((c) => c.id);
    const items = await this.repository.itemsOf(ids);
    const chains = await this.approvals.views('expense', ids);
    return page.map((c) => ({
      id: c.id,
      employee: c.employeeId,
      title: c.title,
      currency: c.currency,
      status: c.status,
      items: (items.get(c.id) ?? []).map((i) => toItemDto(i, c.currency)),
      total: shown(c.total, c.currency),
      approval: chains.get(c.id) ?? null,
      paid_in: c.paidIn,
      paid_reference: c.paidReference,
      paid_at: c.paidAt?.toISOString() ?? null,
      created_at: c.createdAt.toISOString(),
      submitted_at: c.submittedAt?.toISOString() ?? null,
      decided_at: c.decidedAt?.toISOString() ?? null,
    }));
  }
}
