import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { timeSlices } from '../../common/async/time-slices';
import { minorUnitOf } from '../../common/money/currencies';
import { DECIMAL_TEXT_COLUMN, toMinorUnits } from '../../common/money/money';
import { EmployeeFactsService } from '../../employees/employee-facts.service';
import { Payroll } from '../entities/payroll-run.entities';
import { PayrollGridService } from '../runs/payroll-grid.service';
import { PayrollRunsRepository, RowScope } from '../runs/payroll-runs.repository';
import { BooksRepository } from './books.repository';

/** A window of a payroll's rows as the books read them: employees the caller may see, their cells, currency and department. */
export interface BookWindow {
  /** In id order. */
  employees: number[];
  /** Employee → column → amount in minor units of its currency, rounded as the grid shows it; an empty cell is absent. */
  cells: Map<number, Map<number, bigint>>;
  currency: Map<number, string>;
  /** The employee's department on the payroll's last day; empty unless asked for. */
  department: Map<number, number | null>;
}

/**
 * A Completed payroll's cells a window of employees at a time, in employee id order (issue 70,
 * docs/api/payroll.md "The books at scale"): the journal sums them, the register sorts them, and
 * memory holds one window however many employees the payroll pays. A Restricted Admin's windows
 * hold the employees of its departments. A window is as many employees as a run's chunk
 * (PAYROLL_CHUNK_SIZE, 2 000 by default: 60 000 cells of 30 columns, a few MiB).
 */
@Injectable()
export class BookWindows {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: BooksRepository,
    private readonly runs: PayrollRunsRepository,
    private readonly grid: PayrollGridService,
    private readonly facts: EmployeeFactsService,
  ) {}

  /** Employees per window. */
  get size(): number {
    return this.config.payrollChunkSize;
  }

  async *of(payroll: Payroll, scope: RowScope, options: { departments: boolean }): AsyncGenerator<BookWindow> {
    const slices = timeSlices();
    for (let after = 0; ;) {
      // On SQLite every read resolves at once: without pauses a whole payroll would be one turn of the event loop.
      if (slices.due()) await slices.pause();
      const ids = await this.repository.employeesAfter(payroll.id, after, this.size);
      if (!ids.length) return;
      const [first, last] = [ids[0], ids[ids.length - 1]];
      after = last;
      const employees = scope ? (await this.runs.cellEmployees(payroll.id, scope, ids)).sort((a, b) => a - b) : ids;
      if (!employees.length) continue;
      const [currency, department, all] = await Promise.all([
        this.grid.currenciesOf(employees),
        options.departments ? this.facts.departmentsOn(employees, payroll.dateEnd) : new Map<number, number | null>(),
        this.repository.cellsBetween(payroll.id, first, last),
      ]);
      if (slices.due()) await slices.pause();
      const visible = scope ? new Set(employees) : null;
      const cells = new Map<number, Map<number, bigint>>();
      for (const [n, [e, c, value]] of all.entries()) {
        if (n % 1000 === 0 && slices.due()) await slices.pause();
        if (visible && !visible.has(e)) continue;
        const text = DECIMAL_TEXT_COLUMN.from(value as string | number | null);
        if (text === null) continue;
        let row = cells.get(e);
        if (!row) cells.set(e, (row = new Map<number, bigint>()));
        row.set(c, toMinorUnits(text, minorUnitOf(currency.get(e) ?? '')));
      }
      yield { employees, cells, currency, department };
    }
  }
}
