import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, Not } from 'typeorm';
import { AuditChange, recordAudit } from '../../common/audit/audit-log';
import { AuthUser } from '../../common/auth/auth-user';
import { maskIban } from '../../common/banking/iban';
import { DomainException, NotFoundException, ValidationException } from '../../common/errors/domain.exception';
import { ListQueryDto } from '../../common/paging/list-query.dto';
import { findTablePage, ListSpec, parseListQuery } from '../../common/paging/list-request';
import { Page } from '../../common/paging/page';
import { EmployeeAccessService } from '../core/employee-access.service';
import { withEmployeeLock } from '../core/employee-lock';
import { BankAccountDto, CreateBankAccountDto, UpdateBankAccountDto } from './bank-accounts.dto';
import { EmployeeBankAccount } from './bank-account.entity';

export const BANK_ACCOUNT_LIST_SPEC: ListSpec = { idColumn: 'a.id', sortFields: { id: 'a.id' } };

/** What the audit log and the event keep of an account: never the whole IBAN (Restricted Admins read the log). */
function audited(a: EmployeeBankAccount): object {
  return { iban_masked: maskIban(a.iban), bic: a.bic, holder_name: a.holderName, primary: a.primary };
}

/**
 * Employees' bank accounts (issue 46, docs/api/decisions.md §22). An Admin and the employee itself read them
 * whole; anyone else who may see the employee reads them with a masked IBAN. An Admin adds,
 * changes and removes them; the employee adds its own. One account is primary whenever the
 * employee has any (the first is; a new primary replaces the old; removing the primary makes the
 * oldest other one primary). Every change is audited with the masked IBAN and is the event
 * `employee.bank_account_changed`, which tells the employee (a changed account is how payroll
 * fraud is done: the employee hears of it at once, whoever made it).
 */
@Injectable()
export class BankAccountsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly access: EmployeeAccessService,
  ) {}

  async list(caller: AuthUser, employeeId: number, query: ListQueryDto): Promise<Page<BankAccountDto>> {
    await this.access.visible(caller, employeeId);
    const request = parseListQuery(query, BANK_ACCOUNT_LIST_SPEC);
    const page = await findTablePage(this.dataSource.getRepository(EmployeeBankAccount), 'a', request, {
      employee_id: employeeId,
    });
    const whole = this.seesWhole(caller, employeeId);
    return page.map((a) => this.toDto(a, whole));
  }

  async get(caller: AuthUser, employeeId: number, id: number): Promise<BankAccountDto> {
    await this.access.visible(caller, employeeId);
    const account = await this.dataSource.getRepository(EmployeeBankAccount).findOne({ where: { id, employeeId } });
    if (!account) throw new NotFoundException('Bank account');
    return this.toDto(account, this.seesWhole(caller, employeeId));
  }

  async create(caller: AuthUser, employeeId: number, dto: CreateBankAccountDto): Promise<BankAccountDto> {
    await this.access.visible(caller, employeeId);
    if (!this.seesWhole(caller, employeeId))
      throw new DomainException('FORBIDDEN', 'Only an Admin or the employee itself adds its bank accounts');
    return withEmployeeLock(this.dataSource, employeeId, async (em) => {
      const repo = em.getRepository(EmployeeBankAccount);
      const first = !(await repo.exists({ where: { employeeId } }));
      const primary = first || dto.primary === true;
      if (primary && !first) await repo.update({ employeeId, primary: true }, { primary: false });
      const saved = await repo.save(
        repo.create({ employeeId, iban: dto.iban, bic: dto.bic ?? null, holderName: dto.holder_name, primary }),
      );
      await this.audit(em, { action: 'create', resourceId: saved.id, employee: employeeId, before: null, after: audited(saved) });
      return this.toDto(saved, true);
    });
  }

  async update(caller: AuthUser, employeeId: number, id: number, dto: UpdateBankAccountDto): Promise<BankAccountDto> {
    await this.assertAdmin(caller, employeeId);
    return withEmployeeLock(this.dataSource, employeeId, async (em) => {
      const repo = em.getRepository(EmployeeBankAccount);
      const account = await repo.findOne({ where: { id, employeeId } });
      if (!account) throw new NotFoundException('Bank account');
      const before = audited(account);
      if (account.primary && dto.primary === false)
        throw ValidationException.field('primary', 'the primary account stays primary until another account is made primary');
      if (dto.primary && !account.primary) await repo.update({ employeeId, primary: true }, { primary: false });
      Object.assign(account, {
        bic: dto.bic === undefined ? account.bic : dto.bic,
        holderName: dto.holder_name ?? account.holderName,
        primary: account.primary || dto.primary === true,
      });
      const saved = await repo.save(account);
      await this.audit(em, { action: 'update', resourceId: id, employee: employeeId, before, after: audited(saved) });
      return this.toDto(saved, true);
    });
  }

  async remove(caller: AuthUser, employeeId: number, id: number): Promise<{ id: number }> {
    await this.assertAdmin(caller, employeeId);
    await withEmployeeLock(this.dataSource, employeeId, async (em) => {
      const repo = em.getRepository(EmployeeBankAccount);
      const account = await repo.findOne({ where: { id, employeeId } });
      if (!account) throw new NotFoundException('Bank account');
      await repo.delete({ id });
      if (account.primary) {
        const next = await repo.findOne({ where: { employeeId, id: Not(id) }, order: { id: 'ASC' } });
        if (next) await repo.update({ id: next.id }, { primary: true });
      }
      await this.audit(em, { action: 'delete', resourceId: id, employee: employeeId, before: audited(account), after: null });
    });
    return { id };
  }

  /** An Admin, or the employee itself: sees whole IBANs and adds accounts. */
  private seesWhole(caller: AuthUser, employeeId: number): boolean {
    return caller.level === 'Admin' || (caller.employeeId !== null && caller.employeeId === employeeId);
  }

  private async assertAdmin(caller: AuthUser, employeeId: number): Promise<void> {
    await this.access.visible(caller, employeeId);
    if (caller.level !== 'Admin') throw new DomainException('FORBIDDEN', 'Only an Admin changes or removes bank accounts');
  }

  private audit(em: EntityManager, change: Omit<AuditChange, 'resource' | 'event'>): Promise<void> {
    return recordAudit(em, { ...change, resource: 'employees/bank-accounts', event: 'employee.bank_account_changed' });
  }

  private toDto(a: EmployeeBankAccount, whole: boolean): BankAccountDto {
    return {
      id: a.id,
      employee: a.employeeId,
      iban: whole ? a.iban : null,
      iban_masked: maskIban(a.iban),
      bic: a.bic,
      holder_name: a.holderName,
      primary: a.primary,
      created_at: a.createdAt.toISOString(),
      updated_at: a.updatedAt.toISOString(),
    };
  }
}
