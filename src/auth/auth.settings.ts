import { UserLevel } from '../common/auth/user-level';
import { declareSettings } from '../settings/settings.registry';

/** The sign-in settings (declared when this file loads, settings/settings.registry.ts). */
export const REQUIRE_MFA = 'Require MFA';
export const REQUIRE_SSO = 'Require SSO';
/** A comma-separated list of user levels, or empty. */
const LEVEL_LIST = /^((Admin|Restricted Admin|Manager|Employee)(,(Admin|Restricted Admin|Manager|Employee)){0,3})?$/;

/** The levels a setting value of the form "Admin,Restricted Admin" names (Require MFA, Require SSO). */
export function levelsIn(value: string): Set<UserLevel> {
  return new Set(
    value
      .split(',')
      .map((v) => v.trim() as UserLevel)
      .filter(Boolean),
  );
}

declareSettings(
  {
    name: REQUIRE_MFA,
    group: 'Security',
    description:
      'User levels that must sign in with a second factor, comma-separated (Admin,Restricted Admin), or empty. A user of such a level without a factor gets tokens that reach only /users/me/mfa until it has enrolled.',
    default: '',
    pattern: LEVEL_LIST,
    maxLength: 60,
  },
  {
    name: REQUIRE_SSO,
    group: 'Security',
    description:
      'User levels that must sign in through the OpenID Connect provider, comma-separated, or empty: the password grant answers 401 SSO_REQUIRED for them.',
    default: '',
    pattern: LEVEL_LIST,
    maxLength: 60,
  },
);
