import { AuthUser } from './auth-user';

/** Injection token of the Authenticator; the Auth module provides it. */
export const AUTHENTICATOR = Symbol('AUTHENTICATOR');

/** Turns a bearer token into the caller: null when the token is unknown, expired or revoked. */
export interface Authenticator {
  authenticate(token: string): Promise<AuthUser | null>;
}
