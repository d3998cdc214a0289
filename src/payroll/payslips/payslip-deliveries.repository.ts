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
