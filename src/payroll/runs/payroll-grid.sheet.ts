import { SheetAdapter } from '../../common/export/exportable';
import { ExportColumn } from '../../common/export/sheet-writers';
import { PayrollDataDto } from '../dto/payroll-run.dto';

/**
 * The data grid as a sheet (GET .../data?format=csv|xlsx): the employee (id, employee_id, name),
 * then each payroll column, headed by its name, its cells amounts (numbers with the currency's
 * decimals in XLSX). Rows in the grid's order, every row the caller may see.
 */
export const GRID_SHEET: SheetAdapter = {
  sheet(answer) {
    const grid = answer as PayrollDataDto;
    const columns: ExportColumn[] = [
      { field: 'employee', kind: 'other' },
      { field: 'employee_id', kind: 'other' },
      { field: 'name', kind: 'other' },
      ...grid.columns.map((c) => ({ field: `column_${c.id}`, header: c.name, kind: 'amount' as const })),
    ];
    return {
      columns,
      items: grid.rows.map((r) => ({
        employee: r.employee.id,
        employee_id: r.employee.employee_id,
        name: r.employee.name,
        ...Object.fromEntries(grid.columns.map((c) => [`column_${c.id}`, r.values[String(c.id)] ?? null])),
      })),
      nextPage: grid.nextPage,
    };
  },
};
