import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { DomainException } from '../src/common/errors/domain.exception';
import { FileStore } from '../src/common/storage/file-store';
import { LocalFileStore } from '../src/common/storage/local-file-store';
import { S3FileStore } from '../src/common/storage/s3-file-store';
import { startS3Emulator } from './helpers/s3-emulator';

async function bytesOf(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** A body that sends `good` bytes and then fails, as a client that hangs up mid-upload. */
function cutOff(good: number): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(randomBytes(good));
      } else this.destroy(new Error('connection reset'));
    },
  });
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

interface Driver {
  store: FileStore;
  /** How many files the store holds (nothing half-written counts as none). */
  count(): Promise<number>;
  close(): Promise<void>;
}

async function localDriver(): Promise<Driver> {
  const dir = mkdtempSync(join(tmpdir(), 'hr-files-'));
  const files = () => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
  return { store: new LocalFileStore(dir), count: () => Promise.resolve(files()), close: () => Promise.resolve() };
}

/** s3rver, an S3 emulator run by the test (no S3-compatible server is packaged for this machine). */
async function s3Driver(): Promise<Driver> {
  const s3 = await startS3Emulator();
  return { store: new S3FileStore(s3.settings), count: () => s3.objectCount(), close: () => s3.close() };
}

/** The contract every FileStore driver keeps (issue 28): local disk and an S3-compatible bucket alike. */
describe.each([
  ['local disk', localDriver],
  ['S3 (s3rver)', s3Driver],
])('file store contract: %s', (_name, make) => {
  let d: Driver;
  beforeAll(async () => (d = await make()));
  afterAll(() => d.close());

  it('stores a stream under a random key with its size and SHA-256, and gives it back whole or by range', async () => {
    const data = randomBytes(12 * 1024 * 1024 + 17); // more than one S3 part
    const stored = await d.store.put(Readable.from([data.subarray(0, 5_000_000), data.subarray(5_000_000)]), {
      maxBytes: 20 * 1024 * 1024,
      contentType: 'application/pdf',
    });
    expect(stored).toEqual({ key: expect.stringMatching(/^[0-9a-f]{48}$/), size: data.length, sha256: sha256(data) });
    const whole = await d.store.open(stored.key);
    expect(whole!.size).toBe(data.length);
    expect(sha256(await bytesOf(whole!.body))).toBe(sha256(data));
    const part = await d.store.open(stored.key, { start: 10, end: 1033 });
    expect(part!.size).toBe(data.length);
    expect((await bytesOf(part!.body)).equals(data.subarray(10, 1034))).toBe(true);
    expect(await d.store.exists(stored.key)).toBe(true);
    const other = await d.store.put(Readable.from([Buffer.from('x')]), { maxBytes: 10 });
    expect(other.key).not.toBe(stored.key);
  });

  it('refuses a body past its limit with 413 while it streams, and keeps nothing', async () => {
    const before = await d.count();
    const err = await d.store
      .put(Readable.from([randomBytes(600_000), randomBytes(600_000)]), { maxBytes: 1_000_000 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainException);
    expect((err as DomainException).code).toBe('PAYLOAD_TOO_LARGE');
    expect(await d.count()).toBe(before);
  });

  it('keeps nothing of an upload cut off half-way', async () => {
    const before = await d.count();
    await expect(d.store.put(cutOff(300_000), { maxBytes: 10_000_000 })).rejects.toThrow('connection reset');
    // A body that failed before the store looked at it (a client that hung up at once) fails too.
    const early = new PassThrough();
    early.on('error', () => undefined);
    early.destroy(new Error('hung up at once'));
    await new Promise((r) => setImmediate(r));
    await expect(d.store.put(early, { maxBytes: 10_000_000 })).rejects.toThrow('hung up at once');
    expect(await d.count()).toBe(before);
  }, 10_000);

  it('removes a file (twice is fine); a missing or malformed key is nothing to open', async () => {
    const stored = await d.store.put(Readable.from([Buffer.from('passport scan')]), { maxBytes: 100 });
    await d.store.remove(stored.key);
    await d.store.remove(stored.key);
    expect(await d.store.exists(stored.key)).toBe(false);
    expect(await d.store.open(stored.key)).toBeNull();
    await expect(d.store.open('../../etc/passwd')).rejects.toThrow('not a file key');
  });
});
