import { DataSource } from 'typeorm';
import { loadConfig } from '../config/config';
import { OAuthToken } from './entities/oauth-token.entity';
import { PasswordHasher } from './password-hasher';
import { TokenService } from './token.service';
import { DirectoryUser, UserDirectory } from './user-directory';

const alice: DirectoryUser = {
  id: 7,
  username: 'alice',
  email: 'alice@x.test',
  userLevel: 'Employee',
  employeeId: 3,
  active: true,
  mustChangePassword: false,
  passwordHash: '',
};

describe('TokenService: issue, rotation, replay and revocation', () => {
  let ds: DataSource;
  let tokens: TokenService;
  const directory: UserDirectory = {
    findByLogin: async (login) => (login === 'alice' ? alice : null),
    findById: async (id) => (id === alice.id ? alice : null),
    departmentsOf: async () => [],
    replacePasswordHash: async () => undefined,
  };

  beforeAll(async () => {
    // The token table alone, in memory: no application, no migrations.
    ds = await new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [OAuthToken],
      synchronize: true,
    }).initialize();
    const config = loadConfig({ TOKEN_CACHE_MS: '0' });
    tokens = new TokenService(config, ds.getRepository(OAuthToken), directory, new PasswordHasher({ logN: 10, r: 8, p: 1 }));
  });
  afterAll(() => ds.destroy());

  it('a refresh token works once and gives a new pair of the same grant', async () => {
    const first = await tokens.issue(alice);
    await expect(tokens.authenticate(first.access_token)).resolves.toMatchObject({ id: 7, level: 'Employee', employeeId: 3 });
    const second = await tokens.refreshGrant(first.refresh_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    await expect(tokens.authenticate(second.access_token)).resolves.toMatchObject({ id: 7 });
    const rows = await ds.getRepository(OAuthToken).find({ where: { userId: 7 } });
    expect(new Set(rows.map((r) => r.grantId)).size).toBe(1);
  });

  it('presenting a used refresh token again revokes the whole grant (somebody else holds a copy)', async () => {
    const first = await tokens.issue(alice);
    const second = await tokens.refreshGrant(first.refresh_token);
    await expect(tokens.refreshGrant(first.refresh_token)).rejects.toMatchObject({ code: 'INVALID_GRANT' });
    await expect(tokens.authenticate(second.access_token)).resolves.toBeNull();
    await expect(tokens.refreshGrant(second.refresh_token)).rejects.toMatchObject({ code: 'INVALID_GRANT' });
  });

  it('stores only hashes, and revoking an access token ends it alone', async () => {
    const pair = await tokens.issue(alice);
    const stored = await ds.getRepository(OAuthToken).find();
    expect(stored.some((r) => r.tokenHash === pair.access_token || r.tokenHash === pair.refresh_token)).toBe(false);
    await tokens.revoke(pair.access_token);
    await expect(tokens.authenticate(pair.access_token)).resolves.toBeNull();
    await expect(tokens.refreshGrant(pair.refresh_token)).resolves.toMatchObject({ token_type: 'Bearer' });
  });

  it('refuses unknown, expired and inactive users', async () => {
    await expect(tokens.authenticate('hra_unknown')).resolves.toBeNull();
    const short = await tokens.issue(alice, { accessTtlSec: 1 });
    await ds.getRepository(OAuthToken).update({ userId: 7 }, { expiresAt: new Date(Date.now() - 1000) });
    await expect(tokens.authenticate(short.access_token)).resolves.toBeNull();
    const inactive = await tokens.issue({ ...alice, id: 8 });
    await expect(tokens.authenticate(inactive.access_token)).resolves.toBeNull(); // the directory knows no user 8
  });
});
