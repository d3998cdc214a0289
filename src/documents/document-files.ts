import { filetypeinfo } from 'magic-bytes.js';
import { TextDecoder } from 'node:util';
import { Transform, TransformCallback } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { DomainException } from '../common/errors/domain.exception';
import { XLSX_TYPE } from '../common/export/sheet-writers';
import { FileStore } from '../common/storage/file-store';
import { DocumentFileKind } from './documents.config';

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** The type each kind is stored and served as. */
export const KIND_TYPES: Readonly<Record<DocumentFileKind, string>> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  docx: DOCX_TYPE,
  xlsx: XLSX_TYPE,
  text: 'text/plain',
};

const KIND_LABELS: Readonly<Record<DocumentFileKind, string>> = {
  pdf: 'a PDF',
  png: 'a PNG image',
  jpeg: 'a JPEG image',
  webp: 'a WebP image',
  docx: 'a Word (DOCX) document',
  xlsx: 'an Excel (XLSX) workbook',
  text: 'a plain text file',
};

/** Declared types (a part's Content-Type) that name each kind; any other type is a claim no allowed file meets. */
const DECLARED = new Map<string, DocumentFileKind>([
  ...Object.entries(KIND_TYPES).map(([kind, type]) => [type, kind as DocumentFileKind] as const),
  ['image/jpg', 'jpeg'],
  ['image/pjpeg', 'jpeg'],
  ['text/csv', 'text'],
  ['text/tab-separated-values', 'text'],
  ['text/markdown', 'text'],
]);

/** File name endings that name each kind; other endings claim nothing. */
const EXTENSIONS = new Map<string, DocumentFileKind>([
  ['pdf', 'pdf'],
  ['png', 'png'],
  ['jpg', 'jpeg'],
  ['jpeg', 'jpeg'],
  ['jpe', 'jpeg'],
  ['webp', 'webp'],
  ['docx', 'docx'],
  ['xlsx', 'xlsx'],
  ['txt', 'text'],
  ['text', 'text'],
  ['csv', 'text'],
  ['tsv', 'text'],
  ['md', 'text'],
  ['log', 'text'],
]);

/** magic-bytes.js names → our kinds (zip is decided by its entries). */
const MAGIC = new Map<string, DocumentFileKind | 'zip'>([
  ['pdf', 'pdf'],
  ['png', 'png'],
  ['jpg', 'jpeg'],
  ['webp', 'webp'],
  ['zip', 'zip'],
]);

/** Bytes kept from the start of a file: what magic numbers and markup are looked for in. */
const HEAD_BYTES = 4096;

/** Text that a browser could take for a page or an image with script: HTML, SVG, XML. Never served as text. */
const MARKUP = /^\s*<|<\s*(!doctype|html|head|body|script|svg|iframe|object|embed|\?xml)\b/i;

/**
 * Passes a file's bytes on, keeping its first bytes and telling, as they stream, whether the whole
 * file is UTF-8 text without NUL (a strict decoder in streaming mode: no copy of the file is kept).
 */
export class SniffTap extends Transform {
  private readonly parts: Buffer[] = [];
  private kept = 0;
  private decoder: TextDecoder | null = new TextDecoder('utf-8', { fatal: true });
  private textSoFar = true;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (this.kept < HEAD_BYTES) {
      const part = chunk.subarray(0, HEAD_BYTES - this.kept);
      this.parts.push(part);
      this.kept += part.length;
    }
    if (this.decoder) {
      try {
        if (chunk.includes(0)) throw new Error('NUL');
        this.decoder.decode(chunk, { stream: true });
      } catch {
        this.notText();
      }
    }
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    try {
      this.decoder?.decode();
    } catch {
      this.notText();
    }
    done();
  }

  private notText(): void {
    this.textSoFar = false;
    this.decoder = null;
  }

  head(): Buffer {
    return Buffer.concat(this.parts);
  }

  /** Whether every byte was UTF-8 text without NUL (meaningful once the stream has ended). */
  get text(): boolean {
    return this.textSoFar;
  }
}

/** Reads bytes [start, end] of a stored file (both included). */
async function readRange(store: FileStore, key: string, start: number, end: number): Promise<Buffer> {
  const opened = await store.open(key, { start, end });
  return opened ? buffer(opened.body) : Buffer.alloc(0);
}

/** The largest central directory read to tell DOCX from XLSX (an Office file's is a few KiB). */
const MAX_DIRECTORY = 1024 * 1024;

/**
 * The entry names of a stored zip file, from its central directory (the end-of-directory record
 * within the last 64 KiB, then the directory itself): two range reads, whatever the file's size.
 * Null when it is no readable zip.
 */
export async function zipEntryNames(store: FileStore, key: string, size: number): Promise<string[] | null> {
  const tailStart = Math.max(0, size - (22 + 65_535));
  const tail = await readRange(store, key, tailStart, size - 1);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const dirSize = tail.readUInt32LE(eocd + 12);
  const dirOffset = tail.readUInt32LE(eocd + 16);
  if (dirSize === 0 || dirSize > MAX_DIRECTORY || dirOffset + dirSize > size) return null;
  const dir = await readRange(store, key, dirOffset, dirOffset + dirSize - 1);
  const names: string[] = [];
  for (let at = 0; at + 46 <= dir.length && dir.readUInt32LE(at) === 0x02014b50;) {
    const nameLength = dir.readUInt16LE(at + 28);
    const extraLength = dir.readUInt16LE(at + 30);
    const commentLength = dir.readUInt16LE(at + 32);
    names.push(dir.toString('utf8', at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

/**
 * What a file is, from its bytes alone: magic numbers (magic-bytes.js) for PDF and images, the
 * zip's entries for DOCX and XLSX, and UTF-8 text that is not markup. Null for anything else.
 */
export async function fileKindOf(
  head: Buffer,
  text: boolean,
  zipNames: () => Promise<string[] | null>,
): Promise<DocumentFileKind | null> {
  if (!head.length) return null;
  const magic = filetypeinfo(head)
    .map((t) => MAGIC.get(t.typename))
    .find((k) => k !== undefined);
  if (magic === 'zip') {
    const names = new Set((await zipNames()) ?? []);
    if (!names.has('[Content_Types].xml')) return null;
    if (names.has('word/document.xml')) return 'docx';
    if (names.has('xl/workbook.xml')) return 'xlsx';
    return null;
  }
  if (magic) return magic;
  if (text && !MARKUP.test(head.toString('utf8', 0, Math.min(head.length, 1024)))) return 'text';
  return null;
}

const unsupported = (message: string) => new DomainException('UNSUPPORTED_MEDIA_TYPE', message);

/**
 * Checks what the bytes are against the allowlist, the part's declared type and the file name's
 * ending: a PDF named `.png` or declared `image/png` is refused, whatever a browser would make of it.
 */
export function checkFileKind(
  kind: DocumentFileKind | null,
  allowed: readonly DocumentFileKind[],
  declaredType: string | undefined,
  fileName: string,
): DocumentFileKind {
  const accepted = allowed.map((k) => KIND_LABELS[k].replace(/^an? /, '')).join(', ');
  if (!kind || !allowed.includes(kind)) {
    throw unsupported(`The file's content is not an accepted type (${accepted})`);
  }
  const declared = (declaredType ?? '').split(';')[0].trim().toLowerCase();
  if (declared && declared !== 'application/octet-stream' && DECLARED.get(declared) !== kind) {
    throw unsupported(`The file is ${KIND_LABELS[kind]}, not ${declared} as its part's Content-Type says`);
  }
  const dot = fileName.lastIndexOf('.');
  const ending = dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
  const named = EXTENSIONS.get(ending);
  if (named && named !== kind) {
    throw unsupported(`The file is ${KIND_LABELS[kind]}, but its name ends in .${ending}`);
  }
  return kind;
}

/**
 * The name a file is offered back under: the client's name without any directory part, control
 * and bidirectional characters or leading dots, at most 255 characters (its ending kept); `document.<ext>` when
 * nothing is left. Only ever shown, never used to name a stored file.
 */
export function safeFileName(raw: string | undefined, kind: DocumentFileKind): string {
  const base = (raw ?? '')
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    // Bidirectional controls: U+202E made "invoice\u202Efdp.exe" show as "invoiceexe.pdf" (issue 41).
    .replace(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .split(/[\\/]/)
    .pop()!
    .replace(/^[.\s]+/, '')
    .trim();
  const name = base || `document.${kind === 'text' ? 'txt' : kind === 'jpeg' ? 'jpg' : kind}`;
  if (name.length <= 255) return name;
  const dot = name.lastIndexOf('.');
  const ending = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
  return name.slice(0, 255 - ending.length) + ending;
}

/**
 * `Content-Disposition: attachment` with the name as RFC 6266 and 5987 want it: an ASCII
 * `filename` for old clients (anything else replaced by `_`) and the exact name as UTF-8 in
 * `filename*`.
 */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
