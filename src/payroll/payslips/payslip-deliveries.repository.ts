import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { RecordSql, SAMPLE_MANAGER } from '../../common/database/record-sql';
import { EmployeesRepository } from '../../employees/core/employees.repository';
import { Payslip, PayslipDeliveryStatus } from '../entities/payroll-run.entities';
import { RowScope } from '../runs/payroll-runs.repository';

/** Rows per multi-row statement. */
const BATCH = 500;

/** What sending needs of a payslip (not its HTML). */
export type PayslipToSend = Pick<Payslip, 'id' | 'employeeId' | 'documentId' | 'deliveryStatus'>;

/** The SQL of payslip delivery (issue 29): which payslips to send and their statuses (their e-mails are the mail outbox's). */
@Injectable()
export class PayslipDeliveriesRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly employees: EmployeesRepository,
  ) {}

  /**
   * Up to `limit` of the payroll's payslips in `scope` (null: all) after payslip `after`, in id
   * order, of `employees` only when given: sending reads a payroll a window at a time (issue 70).
   */
  @RecordSql(1, [1, 2], [3, 4], 0, 200)
  async toSend(
    payrollId: number,
    scope: RowScope,
    employees: number[] | null,
    after = 0,
    limit?: number,
  ): Promise<PayslipToSend[]> {
    const qb = this.selection(payrollId, scope, employees)
      .select(['s.id', 's.employeeId', 's.documentId', 's.deliveryStatus'])
      .andWhere('s.id > :after', { after })
      .orderBy('s.id', 'ASC');
    if (limit !== undefined) qb.take(limit);
    return qb.getMany();
  }

  /** How many of those payslips have no PDF (made without a browser): none of them can be sent. */
  @RecordSql(1, [1, 2], [3, 4])
  withoutPdf(payrollId: number, scope: RowScope, employees: number[] | null): Promise<number> {
    return this.selection(payrollId, scope, employees).andWhere('s.document_id IS NULL').getCount();
  }

  /** One payslip of the payroll in `scope`, or null. */
  @RecordSql(1, [1, 2], 3)
  async oneToSend(payrollId: number, scope: RowScope, id: number): Promise<PayslipToSend | null> {
    return this.selection(payrollId, scope, null)
      .select(['s.id', 's.employeeId', 's.documentId', 's.deliveryStatus'])
      .andWhere('s.id = :id', { id })
      .getOne();
  }

  private selection(payrollId: number, scope: RowScope, employees: number[] | null) {
    const qb = this.ds.getRepository(Payslip).createQueryBuilder('s').where('s.payroll_id = :payrollId', { payrollId });
    const condition = this.employees.inDepartments('s.employee_id', scope);
    if (condition) qb.andWhere(condition.sql, condition.params);
    if (employees) qb.andWhere(employees.length ? 's.employee_id IN (:...employees)' : '1 = 0', { employees });
    return qb;
  }

  /** Sets the delivery status of payslips (and clears or sets their error), BATCH ids a statement. */
  @RecordSql(SAMPLE_MANAGER, [1, 2], 'queued', null)
  async setStatus(em: EntityManager, ids: number[], status: PayslipDeliveryStatus, error: string | null): Promise<void> {
    for (let i = 0; i < ids.length; i += BATCH)
      await em
        .getRepository(Payslip)
        .update({ id: In(ids.slice(i, i + BATCH)) }, { deliveryStatus: status, deliveryError: error });
  }

  /** The payslip an e-mail sends (null once deleted). */
  @RecordSql(1)
  payslip(id: number): Promise<Payslip | null> {
    return this.ds.getRepository(Payslip).findOne({ where: { id } });
  }

  /** How many of the payroll's payslips have a failed delivery. */
  @RecordSql(1)
  failedIn(payrollId: number): Promise<number> {
    return this.ds.getRepository(Payslip).count({ where: { payrollId, deliveryStatus: 'failed' } });
  }
}
