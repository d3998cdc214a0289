import { ErrorDetail } from '../../common/errors/domain.exception';
import { Employee } from '../entities/employee.entity';

/**
 * The rules of an employee record that POST and PUT /employees and the employees import share, so
 * that a row of a file and a request's body are held to the same: a new employee is Active unless
 * it says otherwise; a Terminated one without a termination date left today; it does not leave
 * before it joined; it does not supervise or approve itself.
 */

/** A new employee's fields: Active unless given, and its termination date settled (`today`: the company's day). */
export function newEmployee(fields: Partial<Employee>, today: string): Partial<Employee> {
  const e: Partial<Employee> = { status: 'Active', ...fields };
  settleTermination(e, today);
  return e;
}

/** A Terminated employee without a termination date leaves today (the company's day). */
export function settleTermination(e: Pick<Partial<Employee>, 'status' | 'terminationDate'>, today: string): void {
  if (e.status === 'Terminated' && !e.terminationDate) e.terminationDate = today;
}

/**
 * A write that makes an Active employee Terminated records its termination date and leaves it
 * Active: the termination takes effect through the employment job's path (its event and hooks:
 * the user deactivated, the leaver's approval steps moved on), at once when the date has come
 * (EmploymentHistoryJobs.terminateNow), else on its day. Whether the write terminates it.
 */
export function deferTermination(before: Pick<Employee, 'status'>, after: Pick<Employee, 'status'>): boolean {
  if (before.status !== 'Active' || after.status !== 'Terminated') return false;
  after.status = 'Active';
  return true;
}

/** termination_date must not be before joined_date. */
export function datesProblem(joined: string | null | undefined, terminated: string | null | undefined): ErrorDetail | null {
  return joined && terminated && terminated < joined
    ? { field: 'termination_date', message: 'must not be before joined_date' }
    : null;
}

/** The days a dated change may have (docs/api/decisions.md §19). */
export const FIRST_DAY = '1900-01-01';
export const LAST_DAY = '2200-12-31';

/** What is wrong with a change's effective date for an employment from `joined` to `terminated`, if anything. */
export function effectiveDateProblem(day: string, joined: string, terminated: string | null): ErrorDetail | null {
  const field = 'effective_date';
  if (day < FIRST_DAY || day > LAST_DAY) return { field, message: `must be between ${FIRST_DAY} and ${LAST_DAY}` };
  if (day < joined) return { field, message: `must not be before joined_date (${joined})` };
  if (terminated && day > terminated) return { field, message: `must not be after termination_date (${terminated})` };
  return null;
}

export const SELF_REFERENCE = 'cannot be the employee itself';

/** Whole years from `date` to `asOf` (both YYYY-MM-DD): an age or years of service; null without a date. */
export function wholeYears(date: string | null, asOf: string): number | null {
  if (!date) return null;
  const [y, m, d] = date.split('-').map(Number);
  const [ay, am, ad] = asOf.split('-').map(Number);
  return ay - y - (am < m || (am === m && ad < d) ? 1 : 0);
}
