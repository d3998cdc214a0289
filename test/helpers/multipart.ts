import { randomBytes } from 'node:crypto';
import { zip } from './zip';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/** A form field, or a file part. */
export type FormPart = { name: string; value: string } | { name: string; filename: string; type?: string; data: Buffer };

/** A multipart/form-data body as a browser sends it: the payload and its Content-Type. */
export function multipartForm(parts: FormPart[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----hr-test-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('data' in p) {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${p.name}"; filename="${p.filename.replace(/["\\]/g, '\\$&')}"\r\n` +
            `Content-Type: ${p.type ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        p.data,
        Buffer.from('\r\n'),
      );
    } else {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A zip of stored (uncompressed) entries: an Office file's container, built without a library. */
export function storedZip(entries: Record<string, string>): Buffer {
  return zip(entries, { stored: true });
}

/** Sample files of each kind a document may be. */
export const SAMPLE_FILES = {
  pdf: (extra = '') => Buffer.from(`%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n${extra}\n%%EOF\n`),
  png: () =>
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
      Buffer.from('IHDR'),
      randomBytes(64),
    ]),
  docx: () =>
    storedZip({
      '[Content_Types].xml': '<?xml version="1.0"?><Types/>',
      '_rels/.rels': '<?xml version="1.0"?><Relationships/>',
      'word/document.xml': '<?xml version="1.0"?><w:document/>',
    }),
  zip: () => storedZip({ 'readme.txt': 'hello', 'evil.html': '<script>alert(1)</script>' }),
};

/** POST /employees/{id}/documents as `token`'s user, `parts` as the form. */
export function postDocument(app: NestFastifyApplication, token: string, employeeId: number, parts: FormPart[]) {
  const form = multipartForm(parts);
  return app.inject({
    method: 'POST',
    url: `/app/api/employees/${employeeId}/documents`,
    headers: { authorization: `Bearer ${token}`, ...form.headers },
    payload: form.payload,
  });
}
