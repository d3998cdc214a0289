import { INestApplicationContext } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { TokenService } from '../../auth/token.service';
import { SettingsService } from '../../settings/settings.service';
import { COMPANY_NAME, ENABLE_REST_API } from '../../settings/settings.registry';
import { UsersService } from '../../users/users.service';

export interface DemoCredentials {
  username: string;
  /** Set only when the user was created by this run: a password is shown once. */
  password: string | null;
  level: string;
}

export interface DemoSeedResult {
  users: DemoCredentials[];
  accessToken: string;
}

export const DEMO_ADMIN = { username: 'admin', email: 'admin@demo.example' };

/**
 * The demo company. Idempotent: a second run keeps existing data and prints no password again.
 * Later modules add their demo data here.
 */
export async function seedDemo(app: INestApplicationContext): Promise<DemoSeedResult> {
  const users = app.get(UsersService);
  const settings = app.get(SettingsService);
  const tokens = app.get(TokenService);

  await settings.set(ENABLE_REST_API, 'Yes');
  await settings.set(COMPANY_NAME, 'Demo Company');

  let admin = await users.findByUsername(DEMO_ADMIN.username);
  let adminPassword: string | null = null;
  if (!admin) {
    adminPassword = randomBytes(12).toString('base64url');
    admin = await users.create({ ...DEMO_ADMIN, password: adminPassword, level: 'Admin' });
  }
  const issued = await tokens.issue(admin, { accessTtlSec: 12 * 3600 });
  return {
    users: [{ username: admin.username, password: adminPassword, level: 'Admin' }],
    accessToken: issued.access_token,
  };
}
