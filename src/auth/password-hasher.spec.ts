import { PasswordHasher } from './password-hasher';

describe('PasswordHasher', () => {
  const hasher = new PasswordHasher(12);

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
    const old = await new PasswordHasher(10).hash('s3cret-pass');
    await expect(hasher.verify('s3cret-pass', old)).resolves.toBe(true);
  });

  it('spends a verification on unknown users and says no', async () => {
    await expect(hasher.verifyAgainstNothing('anything')).resolves.toBe(false);
  });
});
