import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { DataSource } from 'typeorm';
import { InjectDataSource } from '@nestjs/typeorm';
import { DomainException } from '../common/errors/domain.exception';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { ImportRecord } from './entities/import.entities';

/** The first bytes kept to tell the file's type. */
const HEAD_BYTES = 4096;

/** A stored upload: its random name, its size, its first bytes (what it is). */
export interface StoredFile {
  key: string;
  bytes: number;
  head: Buffer;
}

/**
 * Uploaded files on local disk (IMPORT_DIR), each under a random key, kept while its import needs
 * it (a dry run until its commit; an import until it ends). The size is bounded while the body
 * arrives: past IMPORT_MAX_BYTES the upload stops with 413 and nothing stays.
 */
@Injectable()
export class ImportFiles {
  private readonly dir: string;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly ds: DataSource,
  ) {
    this.dir = resolve(config.imports.dir);
  }

  async save(body: Readable): Promise<StoredFile> {
    await mkdir(this.dir, { recursive: true });
    const key = randomBytes(24).toString('hex');
    const partial = join(this.dir, `${key}.part`);
    const max = this.config.imports.maxBytes;
    const out = createWriteStream(partial, { mode: 0o600 });
    let bytes = 0;
    const heads: Buffer[] = [];
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        // Past the limit the rest is read and dropped (not written), so that the 413 reaches the client.
        if (bytes > max) continue;
        if (bytes - chunk.length < HEAD_BYTES) heads.push(chunk.subarray(0, HEAD_BYTES - (bytes - chunk.length)));
        if (!out.write(chunk)) await once(out, 'drain');
      }
      out.end();
      await finished(out);
    } catch {
      out.destroy();
      await rm(partial, { force: true });
      throw new DomainException('BAD_REQUEST', 'The upload was interrupted');
    }
    if (bytes > max) {
      await rm(partial, { force: true });
      throw new DomainException('PAYLOAD_TOO_LARGE', `The file is larger than IMPORT_MAX_BYTES (${max} bytes)`);
    }
    await rename(partial, join(this.dir, key));
    return { key, bytes, head: Buffer.concat(heads) };
  }

  /** Where the import's file is, or null once removed. */
  path(record: Pick<ImportRecord, 'fileKey'>): string | null {
    return record.fileKey ? join(this.dir, record.fileKey) : null;
  }

  async discard(key: string): Promise<void> {
    await rm(join(this.dir, key), { force: true });
  }

  /** Removes the import's file and forgets its key. */
  async remove(record: ImportRecord): Promise<void> {
    if (!record.fileKey) return;
    await this.discard(record.fileKey);
    await this.ds.getRepository(ImportRecord).update({ id: record.id }, { fileKey: null });
    record.fileKey = null;
  }
}
