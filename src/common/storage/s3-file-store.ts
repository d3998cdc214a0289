import type { S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { S3Settings } from '../../config/config';
import { ByteRange, FileStore, KEY_PATTERN, MeteredStream, OpenedObject, StoredObject } from './file-store';

/** Parts of a multipart upload: memory holds at most PART_SIZE × QUEUE_SIZE of an upload. */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;

const notFound = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

/**
 * Files in an S3-compatible bucket (FILE_STORAGE=s3://bucket/prefix): a cluster of API processes
 * on several machines shares them. Uploads stream as multipart uploads (parts of 8 MiB, two in
 * flight), hashed and counted on the way; one that fails or grows past its limit is aborted and
 * nothing stays. The SDK is loaded only when this driver is configured.
 */
export class S3FileStore implements FileStore {
  readonly kind = 's3';
  private client: Promise<S3Client> | null = null;

  constructor(private readonly settings: S3Settings) {}

  private s3(): Promise<S3Client> {
    this.client ??= import('@aws-sdk/client-s3').then(
      ({ S3Client: Client }) =>
        new Client({
          region: this.settings.region,
          forcePathStyle: this.settings.forcePathStyle,
          ...(this.settings.endpoint ? { endpoint: this.settings.endpoint } : {}),
          ...(this.settings.credentials ? { credentials: this.settings.credentials } : {}),
        }),
    );
    return this.client;
  }

  private objectKey(key: string): string {
    if (!KEY_PATTERN.test(key)) throw new Error(`not a file key: ${key.slice(0, 60)}`);
    return `${this.settings.prefix}${key}`;
  }

  async put(body: Readable, opts: { maxBytes: number; contentType?: string }): Promise<StoredObject> {
    const key = randomBytes(24).toString('hex');
    // The body's failure is watched before anything is awaited: one that fails meanwhile (a client
    // that hangs up at once) must fail the upload, not leave it waiting for bytes.
    const meter = new MeteredStream(opts.maxBytes);
    // The meter's own failure (too large, the body cut off) fails the upload, which aborts it.
    const failed = new Promise<never>((_, reject) => meter.once('error', reject));
    failed.catch(() => undefined);
    body.on('error', (err) => meter.destroy(err));
    if (body.errored) meter.destroy(body.errored);
    body.pipe(meter);
    const client = await this.s3();
    const { Upload } = await import('@aws-sdk/lib-storage');
    const upload = new Upload({
      client,
      params: {
        Bucket: this.settings.bucket,
        Key: this.objectKey(key),
        Body: meter,
        ContentType: opts.contentType ?? 'application/octet-stream',
      },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    try {
      await Promise.race([upload.done(), failed]);
    } catch (err) {
      await upload.abort().catch(() => undefined);
      await this.remove(key).catch(() => undefined); // a single-part upload may have completed
      throw err;
    }
    return { key, size: meter.bytes, sha256: meter.digest() };
  }

  async open(key: string, range?: ByteRange): Promise<OpenedObject | null> {
    const { GetObjectCommand } = await import('@aws-sdk/client-s3');
    try {
      const res = await (
        await this.s3()
      ).send(
        new GetObjectCommand({
          Bucket: this.settings.bucket,
          Key: this.objectKey(key),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      const total = res.ContentRange ? Number(res.ContentRange.split('/')[1]) : Number(res.ContentLength ?? 0);
      return { body: res.Body as Readable, size: total };
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    const { DeleteObjectCommand } = await import('@aws-sdk/client-s3');
    await (await this.s3()).send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
  }

  async exists(key: string): Promise<boolean> {
    const { HeadObjectCommand } = await import('@aws-sdk/client-s3');
    try {
      await (await this.s3()).send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
      return true;
    } catch (err) {
      if (notFound(err)) return false;
      throw err;
    }
  }
}
