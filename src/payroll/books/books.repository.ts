import { Injectable } from '@nestjs/common';
import { CURRENT_CELLS } from '../runs/current-cells';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DriverReader } from '../../common/database/driver-reader';
import { RecordSql } from '../../common/database/record-sql';

/** The books' reads of a payroll's cells (issue 46), as arrays of values: 375 000 cells of a 12 500 × 30 run with no object per row. */
@Injectable()
export class BooksRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Each employee's cell of one column (the net pay): [employee, value]. */
  @RecordSql(1, 2)
  async columnCells(payrollId: number, columnId: number): Promise<Array<[number, unknown]>> {
    const rows = await DriverReader.of(this.ds).arrays(
      `SELECT c.employee_id, c.value FROM ${CURRENT_CELLS} WHERE c.payroll_id = :payrollId AND c.column_id = :columnId`,
      { payrollId, columnId },
    );
    return rows.map(([e, v]) => [Number(e), v]);
  }

  /** Every cell of the payroll: [employee, column, value]. */
  @RecordSql(1)
  async cells(payrollId: number): Promise<Array<[number, number, unknown]>> {
    const rows = await DriverReader.of(this.ds).arrays(
      `SELECT c.employee_id, c.column_id, c.value FROM ${CURRENT_CELLS} WHERE c.payroll_id = :payrollId`,
      { payrollId },
    );
    return rows.map(([e, c, v]) => [Number(e), Number(c), v]);
  }
}
