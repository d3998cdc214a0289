/** For the Tasks module ("review payroll X") and, later, webhooks. */
export const PAYROLL_PROCESSED_EVENT = 'payroll.processed';
export const PAYROLL_FAILED_EVENT = 'payroll.failed';
export const PAYROLL_COMPLETED_EVENT = 'payroll.completed';

export interface PayrollEvent {
  payrollId: number;
  status: string;
  employees: number;
  errors: number;
}
