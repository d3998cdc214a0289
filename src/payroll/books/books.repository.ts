import { Injectable } from '@nestjs/common';
import { CURRENT_CELLS } from '../runs/current-cells';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DriverReader } from '../../common/database/driver-reader';
import { RecordSql, SAMPLE_MANAGER } from '../../common/database/record-sql';
import { PayrollBankFile } from './books.entities';

/**
 * The books' reads of a payroll's cells (issue 46), as arrays of values with no object per row, a
 * window of employees at a time (issue 70).
 */
@Injectable()
export class BooksRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Up to `limit` employees with cells after employee `after`, in id order: the books read a payroll
   * a window of employees at a time (issue 70), so that memory holds a window, not the payroll.
   */
  @RecordSql(1, 0, 2000)
  async employeesAfter(payrollId: number, after: number, limit: number): Promise<number[]> {
    const rows = await DriverReader.of(this.ds).arrays(
      `SELECT DISTINCT c.employee_id FROM ${CURRENT_CELLS} WHERE c.payroll_id = :payrollId AND c.employee_id > :after ` +
        'ORDER BY c.employee_id LIMIT :limit',
      { payrollId, after, limit },
    );
    return rows.map(([e]) => Number(e));
  }

  /** The cells of the employees from `first` to `last` (a window): [employee, column, value]. */
  @RecordSql(1, 1, 2000)
  async cellsBetween(payrollId: number, first: number, last: number): Promise<Array<[number, number, unknown]>> {
    const rows = await DriverReader.of(this.ds).arrays(
      `SELECT c.employee_id, c.column_id, c.value FROM ${CURRENT_CELLS} ` +
        'WHERE c.payroll_id = :payrollId AND c.employee_id BETWEEN :first AND :last',
      { payrollId, first, last },
    );
    return rows.map(([e, c, v]) => [Number(e), Number(c), v]);
  }

  /** Up to `limit` employees' cells of one column (the net pay) after employee `after`, in id order: [employee, value]. */
  @RecordSql(1, 2, 0, 2000)
  async columnCellsAfter(payrollId: number, columnId: number, after: number, limit: number): Promise<Array<[number, unknown]>> {
    const rows = await DriverReader.of(this.ds).arrays(
      `SELECT c.employee_id, c.value FROM ${CURRENT_CELLS} WHERE c.payroll_id = :payrollId AND c.column_id = :columnId ` +
        'AND c.employee_id > :after ORDER BY c.employee_id LIMIT :limit',
      { payrollId, columnId, after, limit },
    );
    return rows.map(([e, v]) => [Number(e), v]);
  }

  /**
   * The bank files of the payrolls the employee has cells in (any run's), in id order: those its
   * anonymisation redacts. One statement: each file's payroll is a probe of the cells' primary key.
   */
  @RecordSql(SAMPLE_MANAGER, 10)
  bankFilesPaying(em: EntityManager, employeeId: number): Promise<PayrollBankFile[]> {
    return em
      .getRepository(PayrollBankFile)
      .createQueryBuilder('f')
      .where('EXISTS (SELECT 1 FROM payroll_cells c WHERE c.payroll_id = f.payroll_id AND c.employee_id = :employeeId)', {
        employeeId,
      })
      .orderBy('f.id')
      .getMany();
  }
}
