import { DataSource } from 'typeorm';
import { loadConfig } from '../config/config';
import { UserMfa } from './entities/user-mfa.entity';
import { SettingsService } from '../settings/settings.service';
import { OAuthToken } from './entities/oauth-token.entity';
import { PasswordHasher } from './password-hasher';
import { TokenInvalidations } from './token-invalidations';
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
    findForSignOn: async () => null,
    linkSubject: async () => undefined,
  };

  // The settings as shipped: no level must have a second factor.
  const noMfaRequired = { get: async () => '' } as unknown as SettingsService;

  beforeAll(async () => {
    // The token table alone, in memory: no application, no migrations.
    ds = await new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [OAuthToken, UserMfa],
      synchronize: true,
    }).initialize();
    const config = loadConfig({ TOKEN_CACHE_MS: '0' });
    tokens = new TokenService(
      config,
      ds.getRepository(OAuthToken),
      directory,
      new PasswordHasher({ logN: 10, r: 8, p: 1 }),
      ds.getRepository(UserMfa),
      noMfaRequired,
      new TokenInvalidations(config),
    );
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

  describe('with the cache on', () => {
    let cached: TokenService;
    let lookups = 0;
    let gate: Promise<void> = Promise.resolve();
    beforeAll(() => {
      const counting: UserDirectory = {
        ...directory,
        findById: async (id) => {
          lookups += 1;
          await gate;
          return directory.findById(id);
        },
      };
      const config = loadConfig({ TOKEN_CACHE_MS: '2000' });
      cached = new TokenService(
        config,
        ds.getRepository(OAuthToken),
        counting,
        new PasswordHasher({ logN: 10, r: 8, p: 1 }),
        ds.getRepository(UserMfa),
        noMfaRequired,
        new TokenInvalidations(config),
      );
    });

    it('concurrent requests with the same uncached token share one lookup, then the cache answers', async () => {
      const pair = await cached.issue(alice);
      lookups = 0;
      const users = await Promise.all(Array.from({ length: 20 }, () => cached.authenticate(pair.access_token)));
      expect(users.every((u) => u?.id === 7)).toBe(true);
      expect(lookups).toBe(1);
      await cached.authenticate(pair.access_token);
      expect(lookups).toBe(1);
    });

    it('a lookup under way when the user is invalidated is not cached, and later requests do not join it', async () => {
      const pair = await cached.issue(alice);
      lookups = 0;
      let open!: () => void;
      gate = new Promise((resolve) => (open = resolve));
      const before = cached.authenticate(pair.access_token);
      await new Promise((resolve) => setTimeout(resolve, 20)); // the lookup waits in findById
      await cached.forgetUser(7);
      const after = cached.authenticate(pair.access_token);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(lookups).toBe(2); // a lookup of its own, not the one under way
      open();
      gate = Promise.resolve();
      await expect(before).resolves.toMatchObject({ id: 7 });
      await expect(after).resolves.toMatchObject({ id: 7 });
      await cached.forgetUser(7);
      lookups = 0;
      gate = new Promise((resolve) => (open = resolve));
      const stale = cached.authenticate(pair.access_token);
      await new Promise((resolve) => setTimeout(resolve, 20));
      await cached.forgetUser(7);
      open();
      gate = Promise.resolve();
      await expect(stale).resolves.toMatchObject({ id: 7 });
      await cached.authenticate(pair.access_token); // the stale lookup's answer was not cached
      expect(lookups).toBe(2);
      await cached.revoke(pair.access_token);
      await expect(cached.authenticate(pair.access_token)).resolves.toBeNull();
    });
  });
});
