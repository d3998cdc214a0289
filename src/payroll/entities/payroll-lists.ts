import { ListSpec } from '../../common/paging/list-request';
import { PAYROLL_STATUSES, PAYSLIP_DELIVERY_STATUSES } from './payroll-run.entities';

/*
 * The sort and filter fields of payroll's lists: the services page with them and the controllers
 * document them (@ApiListQuery), so the document cannot say other than what the service accepts.
 */

export const PAY_FREQUENCY_LIST_SPEC: ListSpec = { idColumn: 'f.id', sortFields: { id: 'f.id', name: 'f.name' } };

/** Columns in their calculation order unless sorted otherwise. */
export const COLUMN_LIST_SPEC: ListSpec = {
  idColumn: 'c.id',
  sortFields: { id: 'c.id', colorder: 'c.colorder', name: 'c.name' },
  defaultSort: { field: 'colorder', order: 'ascend' },
  filterFields: { enabled: { column: 'c.enabled', type: 'boolean' } },
};

/** Payrolls: the newest period first unless sorted otherwise. */
export const PAYROLL_LIST_SPEC: ListSpec = {
  idColumn: 'p.id',
  sortFields: { id: 'p.id', date_start: 'p.date_start', name: 'p.name' },
  defaultSort: { field: 'date_start', order: 'descend' },
  filterFields: {
    status: { column: 'p.status', type: 'string', values: PAYROLL_STATUSES },
    department: { column: 'p.department_id', type: 'int' },
  },
};

export const PAYROLL_ERROR_LIST_SPEC: ListSpec = { idColumn: 'x.id', sortFields: { id: 'x.id' } };

export const TEMPLATE_LIST_SPEC: ListSpec = { idColumn: 't.id', sortFields: { id: 't.id', name: 't.name' } };

export const PAYROLL_PAYSLIP_LIST_SPEC: ListSpec = {
  idColumn: 's.id',
  sortFields: { id: 's.id', employee: 's.employee_id' },
  filterFields: {
    delivery_status: { column: 's.delivery_status', type: 'string', values: PAYSLIP_DELIVERY_STATUSES },
    employee: { column: 's.employee_id', type: 'int' },
  },
};

/** An employee's payslips: the newest first. */
export const EMPLOYEE_PAYSLIP_LIST_SPEC: ListSpec = {
  idColumn: 's.id',
  sortFields: { id: 's.id' },
  defaultSort: { field: 'id', order: 'descend' },
};
