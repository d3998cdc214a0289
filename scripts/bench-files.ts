/**
 * The file store's throughput, run by hand: `npm run bench:files` (local disk in a temp dir, then
 * S3 through s3rver started here). Streams a 20 MiB file in and out five times per driver and
 * prints MB/s and this process's peak RSS above its level before: the layer under the documents'
 * upload and download (issue 28 target through HTTP: ≥ 50 MB/s on local storage).
 */
import 'reflect-metadata';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { FileStore } from '../src/common/storage/file-store';
import { LocalFileStore } from '../src/common/storage/local-file-store';
import { S3FileStore } from '../src/common/storage/s3-file-store';

const SIZE = 20 * 1024 * 1024;
const CHUNK = 64 * 1024;

/** SIZE bytes in 64 KiB chunks, as a request body arrives. */
function body(data: Buffer): Readable {
  let offset = 0;
  return new Readable({
    read() {
      this.push(offset < data.length ? data.subarray(offset, (offset += CHUNK)) : null);
    },
  });
}

async function measure(name: string, store: FileStore): Promise<void> {
  const data = randomBytes(SIZE);
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  for (let i = 0; i < 5; i++) {
    let t = process.hrtime.bigint();
    const stored = await store.put(body(data), { maxBytes: SIZE });
    const putMs = Number(process.hrtime.bigint() - t) / 1e6;
    t = process.hrtime.bigint();
    const opened = await store.open(stored.key);
    let n = 0;
    for await (const chunk of opened!.body) n += (chunk as Buffer).length;
    const getMs = Number(process.hrtime.bigint() - t) / 1e6;
    if (n !== SIZE) throw new Error(`read ${n} bytes of ${SIZE}`);
    await store.remove(stored.key);
    const mbps = (ms: number) => ((SIZE / 1e6 / ms) * 1000).toFixed(0);
    console.log(`${name.padEnd(22)} put ${mbps(putMs).padStart(5)} MB/s   get ${mbps(getMs).padStart(5)} MB/s`);
  }
  clearInterval(sampler);
  console.log(`${name.padEnd(22)} peak RSS +${((peak - base) / 1048576).toFixed(1)} MiB`);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hr-bench-files-'));
  try {
    await measure('local disk', new LocalFileStore(join(dir, 'files')));
    const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: join(dir, 's3') });
    const { port } = await server.run();
    const settings = {
      bucket: 'hr-bench',
      prefix: '',
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    };
    const client = new S3Client(settings);
    await client.send(new CreateBucketCommand({ Bucket: settings.bucket }));
    await measure('S3 (s3rver, loopback)', new S3FileStore(settings));
    client.destroy();
    await server.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
