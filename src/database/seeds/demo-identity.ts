import { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ScimGroup, ScimToken } from '../../scim/entities/scim.entities';
import { ScimGroupsService } from '../../scim/scim-groups.service';
import { ScimTokensService } from '../../scim/scim-tokens.service';
import { SCIM_GROUP_LEVELS } from '../../scim/scim.settings';
import { SettingsService } from '../../settings/settings.service';
import { User } from '../../users/entities/user.entity';

/**
 * Identity in the demo (issue 47): "SCIM Group Levels" maps the group "HR Admins" to Restricted
 * Admin, the group holds the demo's Restricted Admin, and a SCIM token for trying /scim/v2
 * (shown once, on the run that makes it). Returns the token, or null when the demo has one.
 */
export async function seedDemoIdentity(app: INestApplicationContext, hrAdmin: User): Promise<string | null> {
  const ds = app.get(DataSource);
  if (await ds.getRepository(ScimToken).exists()) return null;
  await app.get(SettingsService).set(SCIM_GROUP_LEVELS, JSON.stringify({ 'HR Admins': 'Restricted Admin' }));
  if (!(await ds.getRepository(ScimGroup).exists({ where: { displayName: 'HR Admins' } }))) {
    await app.get(ScimGroupsService).create({ displayName: 'HR Admins', members: [{ value: String(hrAdmin.id) }] }, '');
  }
  return (await app.get(ScimTokensService).issue('Demo identity provider', null)).token;
}
