import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull } from 'typeorm';
import { RecordSql, SAMPLE_MANAGER } from '../common/database/record-sql';
import { ExpenseCategory, ExpenseClaim, ExpenseItem } from './entities/expense.entities';

/** A payable claim as the payroll input reads it. */
export interface PayableClaim {
  id: number;
  employeeId: number;
  total: string;
}

/** Ids a statement names at most (an IN list): SQLite's and MariaDB's limits are far above. */
const CHUNK = 1000;

function* chunks(ids: readonly number[]): Generator<number[]> {
  for (let i = 0; i < ids.length; i += CHUNK) yield ids.slice(i, i + CHUNK);
}

/**
 * The claims' SQL (issue 68) beyond one record's reads: items of many claims, what a payroll pays
 * over a period, and the conditional updates that pay a claim once (a payroll's completion) or
 * unpay it (its payslips deleted).
 */
@Injectable()
export class ExpenseClaimsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** What a notification says of a claim: its title, total and currency. */
  async headOf(id: number): Promise<Pick<ExpenseClaim, 'title' | 'total' | 'currency'> | null> {
    return this.ds.getRepository(ExpenseClaim).findOne({ where: { id }, select: { title: true, total: true, currency: true } });
  }

  /** The items of some claims, in their order: claim id → items (1 000 claims a query). */
  @RecordSql([1, 2])
  async itemsOf(claimIds: number[], em: EntityManager = this.ds.manager): Promise<Map<number, ExpenseItem[]>> {
    const out = new Map<number, ExpenseItem[]>(claimIds.map((id) => [id, []]));
    for (const ids of chunks(claimIds)) {
      const items = await em.getRepository(ExpenseItem).find({
        where: { claimId: In(ids) },
        order: { claimId: 'ASC', position: 'ASC' },
      });
      for (const item of items) out.get(item.claimId)?.push(item);
    }
    return out;
  }

  /** The categories of some ids: id → category (those that exist). */
  async categories(ids: number[]): Promise<Map<number, ExpenseCategory>> {
    if (!ids.length) return new Map();
    const found = await this.ds.getRepository(ExpenseCategory).find({ where: { id: In([...new Set(ids)]) } });
    return new Map(found.map((c) => [c.id, c]));
  }

  /** Whether an item of any claim is of the category (it cannot be deleted then). */
  categoryInUse(categoryId: number): Promise<boolean> {
    return this.ds.getRepository(ExpenseItem).exists({ where: { categoryId } });
  }

  /** The Approved claims of the employees, paid by nobody yet, approved by the company's day `to`: a payroll's expenses. */
  @RecordSql([1, 2], '2026-03-31')
  async payable(employeeIds: number[], to: string): Promise<PayableClaim[]> {
    const out: PayableClaim[] = [];
    for (const ids of chunks(employeeIds)) {
      const rows = await this.ds
        .getRepository(ExpenseClaim)
        .createQueryBuilder('c')
        .select(['c.id', 'c.employeeId', 'c.total'])
        .where('c.status = :status', { status: 'Approved' })
        .andWhere('c.approved_on <= :to', { to })
        .andWhere('c.paid_in IS NULL')
        .andWhere('c.employee_id IN (:...ids)', { ids })
        .orderBy('c.id', 'ASC')
        .getMany();
      for (const c of rows) out.push({ id: c.id, employeeId: c.employeeId, total: c.total });
    }
    return out;
  }

  /** The claims a payroll paid. */
  @RecordSql(SAMPLE_MANAGER, 7)
  async paidBy(em: EntityManager, payrollId: number): Promise<ExpenseClaim[]> {
    return em.getRepository(ExpenseClaim).find({ where: { paidIn: payrollId }, order: { id: 'ASC' } });
  }

  /**
   * Marks the claims paid by the payroll, each only while Approved and paid by nobody (one
   * conditional UPDATE): the number it moved, fewer than asked when some were paid, cancelled or
   * changed since the payroll read them.
   */
  @RecordSql(SAMPLE_MANAGER, [1, 2], 7, new Date('2026-04-01T10:00:00Z'))
  async markPaid(em: EntityManager, claimIds: number[], payrollId: number, at: Date): Promise<number> {
    let moved = 0;
    for (const ids of chunks(claimIds)) {
      const result = await em
        .getRepository(ExpenseClaim)
        .update({ id: In(ids), status: 'Approved', paidIn: IsNull() }, { status: 'Paid', paidIn: payrollId, paidAt: at });
      moved += result.affected ?? 0;
    }
    return moved;
  }

  /** The claims of `claimIds` that are not Approved and unpaid any more, for the payroll's error. */
  async notPayable(em: EntityManager, claimIds: number[]): Promise<ExpenseClaim[]> {
    const out: ExpenseClaim[] = [];
    for (const ids of chunks(claimIds))
      for (const c of await em.getRepository(ExpenseClaim).find({ where: { id: In(ids) }, order: { id: 'ASC' } }))
        if (c.status !== 'Approved' || c.paidIn !== null) out.push(c);
    return out;
  }

  /** The payroll's claims are Approved and unpaid again (its payslips were deleted). */
  @RecordSql(SAMPLE_MANAGER, 7)
  async markUnpaid(em: EntityManager, payrollId: number): Promise<void> {
    await em
      .getRepository(ExpenseClaim)
      .update({ paidIn: payrollId, status: 'Paid' }, { status: 'Approved', paidIn: null, paidAt: null });
  }
}
