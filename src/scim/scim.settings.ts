import { USER_LEVELS, UserLevel } from '../common/auth/user-level';
import { declareSettings } from '../settings/settings.registry';

/** SCIM's setting (declared when this file loads, settings/settings.registry.ts). */
export const SCIM_GROUP_LEVELS = 'SCIM Group Levels';

/** The "SCIM Group Levels" value as a map of group name → level (a valid value: see the check). */
export function parseScimGroupLevels(value: string): Map<string, UserLevel> {
  const parsed = JSON.parse(value) as Record<string, UserLevel>;
  return new Map(Object.entries(parsed));
}

function scimGroupLevelsProblem(value: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return 'must be a JSON object';
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'must be a JSON object';
  for (const [group, level] of Object.entries(parsed)) {
    if (!group.trim() || group.length > 255) return 'group names must be 1 to 255 characters';
    if (!(USER_LEVELS as readonly unknown[]).includes(level)) return `"${group}" must map to one of ${USER_LEVELS.join(', ')}`;
  }
  return null;
}

declareSettings({
  name: SCIM_GROUP_LEVELS,
  group: 'Security',
  description:
    'SCIM groups that give a user level, as JSON: {"HR Admins": "Restricted Admin", "HR": "Admin"}. A member of such groups gets the highest of their levels; one who leaves them all becomes Employee.',
  default: '{}',
  maxLength: 4000,
  check: (v) => scimGroupLevelsProblem(v),
});
