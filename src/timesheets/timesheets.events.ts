/** For the Tasks module: an approval task for the employee's supervisor. */
export const TIMESHEET_SUBMITTED_EVENT = 'timesheet.submitted';
export interface TimesheetSubmittedEvent {
  entryId: number;
  employeeId: number;
}
