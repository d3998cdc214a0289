import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { finished, PassThrough, Readable, Transform, TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DataSource } from 'typeorm';
import { DomainException } from '../common/errors/domain.exception';
import { FILE_STORE, FileStore } from '../common/storage/file-store';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { ImportRecord } from './entities/import.entities';

/** The first bytes kept to tell the file's type. */
const HEAD_BYTES = 4096;

/** A stored upload: its key in the file store, its size, its first bytes (what it is). */
export interface StoredFile {
  key: string;
  bytes: number;
  head: Buffer;
}

/** Passes bytes on and keeps the first HEAD_BYTES of them. */
class HeadTap extends Transform {
  private readonly parts: Buffer[] = [];
  private kept = 0;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (this.kept < HEAD_BYTES) {
      this.parts.push(chunk.subarray(0, HEAD_BYTES - this.kept));
      this.kept += Math.min(chunk.length, HEAD_BYTES - this.kept);
    }
    done(null, chunk);
  }

  head(): Buffer {
    return Buffer.concat(this.parts);
  }
}

/**
 * Uploaded files to import, kept in the file store (FILE_STORAGE: local disk or an S3 bucket, so
 * an API process and a worker on another machine share them) under a random key while the import
 * needs them: a dry run until its commit (7 days at most), an import until it ends. Their size is
 * bounded while they arrive (IMPORT_MAX_BYTES, 413, nothing kept). A job reads a local copy in
 * IMPORT_DIR (XLSX is a zip, read at random), removed when its pass ends.
 */
@Injectable()
export class ImportFiles {
  private readonly scratch: string;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(FILE_STORE) private readonly store: FileStore,
  ) {
    this.scratch = resolve(config.imports.dir);
  }

  async save(body: Readable): Promise<StoredFile> {
    // The store reads a tap of the request: whatever happens to the tap, the request itself is
    // read to its end, so that a 413 reaches the client instead of a reset connection.
    const tap = new HeadTap();
    const relay = new PassThrough();
    body.pipe(relay).pipe(tap);
    // A client that hangs up mid-upload: pipe() carries no error, the store must see one. The
    // tap's error reaches us as the store's rejection; the listener keeps it from being rethrown
    // by the pipe once the store has let go of the tap.
    tap.on('error', () => undefined);
    finished(body, (err) => {
      if (err) tap.destroy(err);
    });
    try {
      const stored = await this.store.put(tap, { maxBytes: this.config.imports.maxBytes });
      return { key: stored.key, bytes: stored.size, head: tap.head() };
    } catch (err) {
      body.unpipe(relay);
      body.resume();
      if (err instanceof DomainException) throw err;
      throw new DomainException('BAD_REQUEST', 'The upload was interrupted');
    }
  }

  /**
   * A local copy of the import's file for a job to read, and its removal; null when the store no
   * longer has it.
   */
  async localCopy(record: Pick<ImportRecord, 'id' | 'fileKey'>): Promise<{ path: string; done: () => Promise<void> } | null> {
    const opened = record.fileKey ? await this.store.open(record.fileKey) : null;
    if (!opened) return null;
    await mkdir(this.scratch, { recursive: true });
    const path = join(this.scratch, `import-${record.id}-${randomBytes(8).toString('hex')}`);
    const done = () => rm(path, { force: true });
    try {
      await pipeline(opened.body, createWriteStream(path, { mode: 0o600 }));
    } catch (err) {
      await done();
      throw err;
    }
    return { path, done };
  }

  async discard(key: string): Promise<void> {
    await this.store.remove(key);
  }

  /** Removes the import's file from the store and forgets its key. */
  async remove(record: ImportRecord): Promise<void> {
    if (!record.fileKey) return;
    await this.discard(record.fileKey);
    await this.ds.getRepository(ImportRecord).update({ id: record.id }, { fileKey: null });
    record.fileKey = null;
  }
}
