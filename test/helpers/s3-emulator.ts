import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { S3Settings } from '../../src/config/config';

/** An S3-compatible server run by a test: s3rver on loopback (no S3 server is packaged for this machine). */
export interface S3Emulator {
  settings: S3Settings;
  /** The configuration that points the service at it (FILE_STORAGE and the S3_ / AWS_ variables). */
  env: Record<string, string>;
  /** How many objects the bucket holds. */
  objectCount(): Promise<number>;
  close(): Promise<void>;
}

export async function startS3Emulator(bucket = 'hr-files', prefix = 'test'): Promise<S3Emulator> {
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: mkdtempSync(join(tmpdir(), 'hr-s3-')) });
  const { port } = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  const settings: S3Settings = {
    bucket,
    prefix: `${prefix}/`,
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  };
  const client = new S3Client({ ...settings, endpoint, credentials: settings.credentials ?? undefined });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    settings,
    env: {
      FILE_STORAGE: `s3://${bucket}/${prefix}`,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
    },
    objectCount: async () => (await client.send(new ListObjectsV2Command({ Bucket: bucket }))).KeyCount ?? 0,
    close: async () => {
      client.destroy();
      await server.close();
    },
  };
}
