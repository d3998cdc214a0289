import { Injectable } from '@nestjs/common';
import { randomBytes, scrypt, ScryptOptions, timingSafeEqual } from 'node:crypto';
import { clientKey } from './client-key';
import { HashGate } from './hash-gate';

const KEY_LENGTH = 64;

export interface ScryptParams {
  /** log2 of the cost N. */
  logN: number;
  r: number;
  p: number;
}

/**
 * OWASP's scrypt minimum allows N=2^17,r=8,p=1 (128 MiB per hash) or N=2^15,r=8,p=3 (32 MiB).
 * Measured on this service's 2-core machine: about 250 ms per hash for 2^15/8/3 and 390 ms for
 * 2^17/8/1. The 2^15/8/3 profile takes a quarter of the memory for a shorter sign-in, so ten
 * concurrent sign-ins need 320 MiB rather than 1.3 GiB.
 */
export const DEFAULT_SCRYPT: ScryptParams = { logN: 15, r: 8, p: 3 };

function scryptAsync(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** The stored hash of a user without a password: no password verifies against it. */
export const NO_PASSWORD = '!';

/**
 * scrypt password hashes in the form scrypt$<logN>$<r>$<p>$<salt b64>$<hash b64>. The parameters
 * travel with the hash, so raising the cost later keeps old hashes verifiable.
 */
@Injectable()
export class PasswordHasher {
  static readonly MIN_LENGTH = 8;
  static readonly MAX_LENGTH = 256;
  private dummyHash?: Promise<string>;

  /** Every hash of this process goes through the gate: a bounded number on libuv's threads at once. */
  constructor(
    private readonly params: ScryptParams = DEFAULT_SCRYPT,
    readonly gate: HashGate = new HashGate(),
  ) {}

  /** A new hash. `client` (an address) counts it against that client's share of the gate; none for the service's own work. */
  async hash(password: string, client: string | null = null): Promise<string> {
    const salt = randomBytes(16);
    const { logN, r, p } = this.params;
    const key = await this.scrypt(client, password, salt, KEY_LENGTH, this.options(logN, r, p));
    return ['scrypt', logN, r, p, salt.toString('base64'), key.toString('base64')].join('$');
  }

  /** Whether a stored hash was made with other parameters than the current ones (upgrade it at sign-in). */
  needsRehash(stored: string): boolean {
    const { logN, r, p } = this.params;
    return !stored.startsWith(`scrypt$${logN}$${r}$${p}$`);
  }

  /** Whether the password is the one hashed; `client` as for hash(). */
  async verify(password: string, stored: string, client: string | null = null): Promise<boolean> {
    const parts = stored.split('$');
    // No hash (NO_PASSWORD): false, in the time a real verification takes, so that a user without a
    // password cannot be told by timing from a wrong password.
    if (parts.length !== 6 || parts[0] !== 'scrypt') return this.verifyAgainstNothing(password, client);
    const [logN, r, p] = parts.slice(1, 4).map(Number);
    const salt = Buffer.from(parts[4], 'base64');
    const expected = Buffer.from(parts[5], 'base64');
    const key = await this.scrypt(client, password, salt, expected.length, this.options(logN, r, p));
    return key.length === expected.length && timingSafeEqual(key, expected);
  }

  /** Spends the same time as a real verification, so unknown users cannot be told apart by timing. */
  async verifyAgainstNothing(password: string, client: string | null = null): Promise<false> {
    this.dummyHash ??= this.hash(randomBytes(16).toString('hex'));
    await this.verify(password, await this.dummyHash, client);
    return false;
  }

  private scrypt(client: string | null, password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
    return this.gate.run(client === null ? null : clientKey(client), () => scryptAsync(password, salt, keylen, options));
  }

  private options(logN: number, r: number, p: number): ScryptOptions {
    const N = 2 ** logN;
    return { N, r, p, maxmem: 256 * N * r };
  }
}
