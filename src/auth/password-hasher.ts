import { Injectable } from '@nestjs/common';
import { randomBytes, scrypt, ScryptOptions, timingSafeEqual } from 'node:crypto';

const KEY_LENGTH = 64;
/** log2 of scrypt's N: 2^15 = 32 MiB per hash with r=8, about 60 ms on this kind of machine. */
const DEFAULT_LOG_N = 15;

function scryptAsync(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/**
 * scrypt password hashes in the form scrypt$<logN>$<r>$<p>$<salt b64>$<hash b64>. The parameters
 * travel with the hash, so raising the cost later keeps old hashes verifiable.
 */
@Injectable()
export class PasswordHasher {
  static readonly MIN_LENGTH = 8;
  static readonly MAX_LENGTH = 256;
  private dummyHash?: Promise<string>;

  constructor(private readonly logN = DEFAULT_LOG_N) {}

  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const r = 8;
    const p = 1;
    const key = await scryptAsync(password, salt, KEY_LENGTH, this.options(this.logN, r, p));
    return ['scrypt', this.logN, r, p, salt.toString('base64'), key.toString('base64')].join('$');
  }

  async verify(password: string, stored: string): Promise<boolean> {
    const parts = stored.split('$');
    if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
    const [logN, r, p] = parts.slice(1, 4).map(Number);
    const salt = Buffer.from(parts[4], 'base64');
    const expected = Buffer.from(parts[5], 'base64');
    const key = await scryptAsync(password, salt, expected.length, this.options(logN, r, p));
    return key.length === expected.length && timingSafeEqual(key, expected);
  }

  /** Spends the same time as a real verification, so unknown users cannot be told apart by timing. */
  async verifyAgainstNothing(password: string): Promise<false> {
    this.dummyHash ??= this.hash(randomBytes(16).toString('hex'));
    await this.verify(password, await this.dummyHash);
    return false;
  }

  private options(logN: number, r: number, p: number): ScryptOptions {
    const N = 2 ** logN;
    return { N, r, p, maxmem: 256 * N * r };
  }
}
