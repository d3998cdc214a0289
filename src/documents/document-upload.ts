import busboy from 'busboy';
import { IncomingHttpHeaders } from 'node:http';
import { finished, Readable } from 'node:stream';
import { DomainException, ValidationException } from '../common/errors/domain.exception';
import { FileStore, StoredObject } from '../common/storage/file-store';
import { DocumentFileKind } from './documents.config';
import { checkFileKind, fileKindOf, KIND_TYPES, safeFileName, SniffTap, zipEntryNames } from './document-files';

/** A request as the upload routes hand it over: its headers and its unread body. */
export interface MultipartRequest {
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** A document file as stored: its key, size and sha256, what it is, the name it is offered under. */
export interface ReceivedFile extends StoredObject {
  fileName: string;
  contentType: string;
}

/** An upload read to its end: its form fields, and its file, stored. */
export interface ReceivedUpload {
  fields: Record<string, string>;
  file: ReceivedFile;
}

/** The file part once stored, with what the client said of it. */
interface FilePart {
  stored: StoredObject;
  tap: SniffTap;
  name: string;
  declared: string;
}

/** Room for the form's other parts and boundaries beyond the file itself, in a Content-Length check. */
const FORM_OVERHEAD = 256 * 1024;

/**
 * Reads a `multipart/form-data` upload: one `file` part streamed into the store (its size bounded,
 * its sha256 and type found on the way), the other parts as fields. Nothing stays stored when the
 * upload fails: too large (413), cut off (400), or a file that is not what it claims (415).
 */
export async function receiveUpload(
  store: FileStore,
  request: MultipartRequest,
  limits: { maxBytes: number; allowedTypes: readonly DocumentFileKind[] },
): Promise<ReceivedUpload> {
  const body = request.body;
  const type = request.headers['content-type'] ?? '';
  if (!(body instanceof Readable) || !/^multipart\/form-data\s*;/i.test(type)) {
    throw new DomainException('UNSUPPORTED_MEDIA_TYPE', 'Send the file as multipart/form-data: a "file" part and the fields');
  }
  if (Number(request.headers['content-length']) > limits.maxBytes + FORM_OVERHEAD) {
    body.resume();
    throw new DomainException('PAYLOAD_TOO_LARGE', `The file is larger than DOCUMENT_MAX_BYTES (${limits.maxBytes} bytes)`);
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: request.headers,
      limits: { files: 1, fields: 20, fieldSize: 10_000, parts: 21, headerPairs: 20 },
      defParamCharset: 'utf8',
    });
  } catch {
    body.resume();
    throw new DomainException('UNSUPPORTED_MEDIA_TYPE', 'The multipart/form-data body has no boundary');
  }

  const fields: Record<string, string> = {};
  const problems: Array<{ field: string; message: string }> = [];
  // Set by the parser's callbacks (an object, so that the compiler does not narrow them to null).
  const state: { upload: Promise<FilePart> | null; tap: SniffTap | null } = { upload: null, tap: null };

  const parsed = new Promise<void>((resolve, reject) => {
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || state.upload) {
        problems.push({
          field: name,
          message: name === 'file' ? 'only one file per upload' : 'is not a file part: send the file as "file"',
        });
        stream.resume();
        return;
      }
      const sniff = new SniffTap();
      state.tap = sniff;
      stream.on('error', (err) => sniff.destroy(err));
      // The tap's error reaches us as the store's rejection; once the store has let go of the tap,
      // this listener keeps a late one from being thrown.
      sniff.on('error', () => undefined);
      stream.pipe(sniff);
      state.upload = store.put(sniff, { maxBytes: limits.maxBytes }).then(
        (stored) => ({ stored, tap: sniff, name: info.filename ?? '', declared: info.mimeType }),
        (err: unknown) => {
          // Keep reading the request, so that the answer reaches the client.
          stream.unpipe(sniff);
          stream.resume();
          throw err;
        },
      );
      state.upload.catch(() => undefined);
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated || info.nameTruncated) problems.push({ field: name, message: 'is too long' });
      else if (Object.hasOwn(fields, name)) problems.push({ field: name, message: 'is given twice' });
      else fields[name] = value;
    });
    parser.on('partsLimit', () => problems.push({ field: '', message: 'too many parts' }));
    parser.on('fieldsLimit', () => problems.push({ field: '', message: 'too many fields' }));
    parser.on('filesLimit', () => problems.push({ field: 'file', message: 'only one file per upload' }));
    parser.on('close', resolve);
    parser.on('error', reject);
  });
  // A client that hangs up mid-upload: the parser and the file's stream must fail, not wait (the
  // error is handled here; pipe() carries none).
  body.on('error', () => undefined);
  finished(body, (err) => {
    if (!err) return;
    parser.destroy(err);
    state.tap?.destroy(err);
  });
  body.pipe(parser);

  let stored: StoredObject | null = null;
  try {
    try {
      await parsed;
    } catch {
      throw new DomainException('BAD_REQUEST', 'The upload was interrupted or is not well-formed multipart/form-data');
    }
    if (!state.upload) throw ValidationException.field('file', 'is required: a "file" part with the document');
    let received: FilePart;
    try {
      received = await state.upload;
    } catch (err) {
      if (err instanceof DomainException) throw err;
      throw new DomainException('BAD_REQUEST', 'The upload was interrupted');
    }
    stored = received.stored;
    if (problems.length) throw new ValidationException(problems);
    const { key, size } = received.stored;
    const kind = await fileKindOf(received.tap.head(), received.tap.text, () => zipEntryNames(store, key, size));
    const checked = checkFileKind(kind, limits.allowedTypes, received.declared, received.name);
    return {
      fields,
      file: { ...stored, fileName: safeFileName(received.name, checked), contentType: KIND_TYPES[checked] },
    };
  } catch (err) {
    // The file may be stored although the form around it failed.
    const kept =
      stored ??
      (state.upload
        ? await state.upload.then(
            (u) => u.stored,
            () => null,
          )
        : null);
    if (kept) await store.remove(kept.key);
    body.unpipe(parser);
    body.resume();
    throw err;
  }
}
