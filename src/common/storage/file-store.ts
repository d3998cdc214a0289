import { createHash, Hash } from 'node:crypto';
import { Readable, Transform, TransformCallback } from 'node:stream';
import { DomainException } from '../errors/domain.exception';

/** What a stored file is: its random key, its size in bytes, its SHA-256 (hex), computed while it streamed in. */
export interface StoredObject {
  key: string;
  size: number;
  sha256: string;
}

/** A byte range of a file, both ends included (HTTP Range). */
export interface ByteRange {
  start: number;
  end: number;
}

/** An open file: its bytes (the range asked for, or all), and the whole file's size. */
export interface OpenedObject {
  body: Readable;
  size: number;
}

/**
 * The one port to stored files (issue 28): uploaded documents, and what payslip PDFs and import
 * files will keep. `local:<dir>` (the embedded default) or `s3://bucket/prefix`; both drivers pass
 * the same contract suite (test/file-store.e2e-spec.ts). Keys are random: a client's file name
 * never names a stored file.
 */
export interface FileStore {
  readonly kind: 'local' | 's3';
  /**
   * Streams `body` in under a new random key. Past `maxBytes` the upload stops with 413
   * PAYLOAD_TOO_LARGE; a body that fails or is cut off leaves nothing stored (the error rethrown).
   */
  put(body: Readable, opts: { maxBytes: number; contentType?: string }): Promise<StoredObject>;
  /** The file's bytes, or `range` of them; null when no file has that key. */
  open(key: string, range?: ByteRange): Promise<OpenedObject | null>;
  /** Removes the file; nothing when it is already gone. */
  remove(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

/** Injection token of the configured FileStore. */
export const FILE_STORE = Symbol('FILE_STORE');

/** Keys are 48 hex digits: 192 random bits. */
export const KEY_PATTERN = /^[0-9a-f]{48}$/;

export function tooLarge(maxBytes: number): DomainException {
  return new DomainException('PAYLOAD_TOO_LARGE', `The file is larger than ${maxBytes} bytes`);
}

/**
 * Counts and hashes the bytes that pass, and fails the stream past `maxBytes` (so a writer stops,
 * and whatever it wrote is discarded by the driver).
 */
export class MeteredStream extends Transform {
  /** Bytes so far (not `size`: the S3 uploader reads a body's `size` as its length). */
  bytes = 0;
  private readonly hash: Hash = createHash('sha256');

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) return done(tooLarge(this.maxBytes));
    this.hash.update(chunk);
    done(null, chunk);
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}
