import { UserLevel } from './user-level';

/** The authenticated caller, as the bearer strategy puts it on the request. */
export interface AuthUser {
  id: number;
  username: string;
  email: string;
  level: UserLevel;
  /** The caller's own employee record, when linked. */
  employeeId: number | null;
  /** Departments assigned to a Restricted Admin (without their children). */
  departmentIds: number[];
  mustChangePassword: boolean;
  /** The "Require MFA" setting names the user's level and it has no factor yet: only enrolment is open. */
  mfaEnrolmentRequired?: boolean;
  /** The grant (token pair) this request's token belongs to. */
  grantId: string;
}
