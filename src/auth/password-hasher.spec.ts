import { NO_PASSWORD, PasswordHasher } from './password-hasher';

describe('PasswordHasher', () => {
  const hasher = new PasswordHasher({ logN: 12, r: 8, p: 1 });

  it('verifies the right password only, with a fresh salt each time', async () => {
    const a = await hasher.hash('correct horse');
    const b = await hasher.hash('correct horse');
    expect(a).toMatch(/^scrypt\$12\$8\$1\$/);
    expect(a).not.toBe(b);
    await expect(hasher.verify('correct horse', a)).resolves.toBe(true);
    await expect(hasher.verify('correct horsE', a)).resolves.toBe(false);
    await expect(hasher.verify('x', 'not-a-hash')).resolves.toBe(false);
  });

  it('verifies hashes made with another cost, since the parameters travel with the hash', async () => {
    const old = await new PasswordHasher({ logN: 10, r: 8, p: 1 }).hash('s3cret-pass');
    await expect(hasher.verify('s3cret-pass', old)).resolves.toBe(true);
  });

  it('tells hashes made with other parameters apart, for the upgrade at sign-in', async () => {
    const current = await hasher.hash('s3cret-pass');
    expect(hasher.needsRehash(current)).toBe(false);
    expect(hasher.needsRehash(await new PasswordHasher({ logN: 12, r: 8, p: 2 }).hash('s3cret-pass'))).toBe(true);
    expect(new PasswordHasher().needsRehash(current)).toBe(true);
  });

  it('verifies nothing against a user without a password, spending a verification all the same', async () => {
    const spent = jest.spyOn(hasher, 'verifyAgainstNothing');
    await expect(hasher.verify('anything', NO_PASSWORD)).resolves.toBe(false);
    expect(spent).toHaveBeenCalledWith('anything', null);
  });

  it('spends a verification on unknown users and says no', async () => {
    await expect(hasher.verifyAgainstNothing('anything')).resolves.toBe(false);
  });
});
