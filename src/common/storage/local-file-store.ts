import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ByteRange, FileStore, KEY_PATTERN, MeteredStream, OpenedObject, StoredObject } from './file-store';

/**
 * Files on local disk (FILE_STORAGE=local:<dir>, created on first use): `<dir>/<ab>/<key>`, the
 * first two digits of the key as a directory so that no directory holds millions of entries. A
 * file is written under a temporary name and renamed once complete, so a reader never sees half a
 * file and an interrupted upload leaves nothing under a key.
 */
export class LocalFileStore implements FileStore {
  readonly kind = 'local';
  private readonly dir: string;

  constructor(dir: string) {
    this.dir = resolve(dir);
  }

  private path(key: string): string {
    if (!KEY_PATTERN.test(key)) throw new Error(`not a file key: ${key.slice(0, 60)}`);
    return join(this.dir, key.slice(0, 2), key);
  }

  async put(body: Readable, opts: { maxBytes: number }): Promise<StoredObject> {
    const key = randomBytes(24).toString('hex');
    const path = this.path(key);
    await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true });
    const partial = `${path}.part`;
    const meter = new MeteredStream(opts.maxBytes);
    const out = createWriteStream(partial, { mode: 0o600 });
    try {
      await pipeline(body, meter, out);
      await rename(partial, path);
    } catch (err) {
      // A body that fails at once rejects the pipeline while the file is still being opened: wait
      // for it to close, or the open would create the part file after it was removed.
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()).destroy());
      await rm(partial, { force: true });
      throw err;
    }
    return { key, size: meter.bytes, sha256: meter.digest() };
  }

  async open(key: string, range?: ByteRange): Promise<OpenedObject | null> {
    const path = this.path(key);
    const info = await stat(path).catch(() => null);
    if (!info) return null;
    const body = createReadStream(path, range ? { start: range.start, end: range.end } : {});
    return { body, size: info.size };
  }

  async remove(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    return (await stat(this.path(key)).catch(() => null)) !== null;
  }
}
