import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull, LessThanOrEqual } from 'typeorm';
import { RecordSql, SAMPLE_MANAGER } from '../../common/database/record-sql';
import { EmployeesRepository } from '../../employees/employees.repository';
import { Payslip, PayslipDelivery, PayslipDeliveryStatus } from '../entities/payroll-run.entities';
import { RowScope } from '../runs/payroll-runs.repository';

/** Rows per multi-row statement. */
const BATCH = 500;

/** What sending needs of a payslip (not its HTML). */
export type PayslipToSend = Pick<Payslip, 'id' | 'employeeId' | 'documentId' | 'deliveryStatus'>;

/** The SQL of payslip delivery (issue 29): which payslips to send, their delivery records and statuses. */
@Injectable()
export class PayslipDeliveriesRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly employees: EmployeesRepository,
  ) {}

  /** The payroll's payslips in `scope` (null: all), of `employees` only when given. */
  @RecordSql(1, [1, 2], [3, 4])
  async toSend(payrollId: number, scope: RowScope, employees: number[] | null): Promise<PayslipToSend[]> {
    const qb = this.ds
      .getRepository(Payslip)
      .createQueryBuilder('s')
      .select(['s.id', 's.employeeId', 's.documentId', 's.deliveryStatus'])
      .where('s.payroll_id = :payrollId', { payrollId })
      .orderBy('s.id', 'ASC');
    const condition = this.employees.inDepartments('s.employee_id', scope);
    if (condition) qb.andWhere(condition.sql, condition.params);
    if (employees) qb.andWhere(employees.length ? 's.employee_id IN (:...employees)' : '1 = 0', { employees });
    return qb.getMany();
  }

  /** Sets the delivery status of payslips (and clears or sets their error), BATCH ids a statement. */
  @RecordSql(SAMPLE_MANAGER, [1, 2], 'queued', null)
  async setStatus(em: EntityManager, ids: number[], status: PayslipDeliveryStatus, error: string | null): Promise<void> {
    for (let i = 0; i < ids.length; i += BATCH)
      await em
        .getRepository(Payslip)
        .update({ id: In(ids.slice(i, i + BATCH)) }, { deliveryStatus: status, deliveryError: error });
  }

  /** New delivery records, one per payslip of the request (the unique index keeps a retried request to one). */
  async insert(
    em: EntityManager,
    rows: Array<Omit<PayslipDelivery, 'id' | 'createdAt' | 'startedAt' | 'finishedAt' | 'error'>>,
  ): Promise<void> {
    for (let i = 0; i < rows.length; i += BATCH)
      await em
        .createQueryBuilder()
        .insert()
        .into(PayslipDelivery)
        .values(rows.slice(i, i + BATCH))
        .execute();
  }

  /** The deliveries of a request (their ids, to queue). */
  @RecordSql('00000000-0000-0000-0000-000000000000')
  ofRequest(requestId: string): Promise<PayslipDelivery[]> {
    return this.ds.getRepository(PayslipDelivery).find({ where: { requestId }, order: { id: 'ASC' } });
  }

  /** Queued deliveries due by `now` (send_after passed or none), oldest first. */
  @RecordSql(new Date('2026-11-28T08:00:00Z'), 500)
  due(now: Date, limit: number): Promise<PayslipDelivery[]> {
    return this.ds.getRepository(PayslipDelivery).find({
      select: { id: true, requestId: true },
      where: [
        { status: 'queued', sendAfter: IsNull() },
        { status: 'queued', sendAfter: LessThanOrEqual(now) },
      ],
      order: { id: 'ASC' },
      take: limit,
    });
  }

  /**
   * Claims a queued delivery for sending: one conditional UPDATE, written (committed) before the
   * SMTP call. False when it is not queued (sent, failed, or claimed by an attempt that never
   * settled).
   */
  @RecordSql(1)
  async claim(id: number): Promise<boolean> {
    const result = await this.ds
      .getRepository(PayslipDelivery)
      .update({ id, status: 'queued' }, { status: 'sending', startedAt: new Date() });
    return result.affected === 1;
  }

  /** A claimed delivery whose SMTP server did not accept it: queued again for the retry (which claims it again). */
  @RecordSql(1, 'Mailbox unavailable')
  async requeue(id: number, error: string): Promise<void> {
    await this.ds.getRepository(PayslipDelivery).update({ id, status: 'sending' }, { status: 'queued', error });
  }

  /** The payslip a delivery sends (null once deleted). */
  @RecordSql(1)
  payslip(id: number): Promise<Payslip | null> {
    return this.ds.getRepository(Payslip).findOne({ where: { id } });
  }

  @RecordSql(1)
  one(id: number): Promise<PayslipDelivery | null> {
    return this.ds.getRepository(PayslipDelivery).findOne({ where: { id } });
  }

  /** How many of the payroll's payslips have a failed delivery. */
  @RecordSql(1)
  failedIn(payrollId: number): Promise<number> {
    return this.ds.getRepository(Payslip).count({ where: { payrollId, deliveryStatus: 'failed' } });
  }
}
