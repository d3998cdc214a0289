import { UserLevel } from '../common/auth/user-level';

/** Injection token of the UserDirectory; the Users module provides it (UserDirectoryModule). */
export const USER_DIRECTORY = Symbol('USER_DIRECTORY');

/** What authentication needs to know of a login user. */
export interface DirectoryUser {
  id: number;
  username: string;
  email: string;
  userLevel: UserLevel;
  employeeId: number | null;
  /**
   * May sign in and use its tokens: the account is active and its employee has not left by the
   * company's day (a leaver is refused from the first request of its termination date, before the
   * employment job deactivates the account).
   */
  active: boolean;
  /** Its employee leaves today or tomorrow (or has left): its tokens are not cached across the day's change. */
  leavesSoon?: boolean;
  mustChangePassword: boolean;
  passwordHash: string;
}

/**
 * The narrow view of the users that tokens and sign-in need. The Users module implements it, so
 * `auth/` never imports `users/` (which imports `auth/` for tokens and password hashing).
 */
export interface UserDirectory {
  /** By username, or by e-mail when `login` contains "@" (both stored in lower case). */
  findByLogin(login: string): Promise<DirectoryUser | null>;
  findById(id: number): Promise<DirectoryUser | null>;
  /**
   * The user single sign-on names (OpenID Connect): the one linked to `subject`, else the one whose
   * SCIM externalId is `objectId` (Entra ID's oid), else the one whose e-mail is `verifiedEmail`;
   * those two only among users not linked to a subject yet.
   */
  findForSignOn(subject: string, objectId: string | null, verifiedEmail: string | null): Promise<DirectoryUser | null>;
  /** Links the subject to the user (its next sign-in finds it by subject). */
  linkSubject(userId: number, subject: string): Promise<void>;
  /** A Restricted Admin's assigned departments. */
  departmentsOf(userId: number): Promise<number[]>;
  /** Replaces the password hash only while it is still `expected` (a rehash must not undo a change). */
  replacePasswordHash(userId: number, expected: string, next: string): Promise<void>;
}
