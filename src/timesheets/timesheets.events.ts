/** For the Tasks module: an approval task for the employee's supervisor. */
export const TIMESHEET_SUBMITTED_EVENT = 'timesheet.submitted';
export interface TimesheetSubmittedEvent {
  entryId: number;
  employeeId: number;
}

/** For the Tasks module: the approval task of the entry is done. */
export const TIMESHEET_DECIDED_EVENT = 'timesheet.decided';
export interface TimesheetDecidedEvent {
  entryId: number;
  employeeId: number;
  status: 'Approved' | 'Rejected';
}
