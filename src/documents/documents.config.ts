import { declareConfig } from '../config/config';

export const DOCUMENT_FILE_KINDS = ['pdf', 'png', 'jpeg', 'webp', 'docx', 'xlsx', 'text'] as const;
export type DocumentFileKind = (typeof DOCUMENT_FILE_KINDS)[number];

/** An S3-compatible bucket for stored files (FILE_STORAGE=s3://bucket/prefix). */

/** The documents' configuration (DOCUMENT_*), declared beside the module that reads it. */
declare module '../config/config' {
  interface ModuleConfig {
    /** Uploaded documents (issue 28). */
    documents: {
      /** One uploaded document file (DOCUMENT_MAX_BYTES; 413 beyond, nothing kept). */
      maxBytes: number;
      /** The kinds of file accepted (DOCUMENT_ALLOWED_TYPES), decided by their bytes. */
      allowedTypes: DocumentFileKind[];
    };
  }
}

declareConfig('documents', ({ get, size, problem }) => {
  const raw = get('DOCUMENT_ALLOWED_TYPES') ?? DOCUMENT_FILE_KINDS.join(',');
  const kinds = [
    ...new Set(
      raw
        .split(',')
        .map((k) => k.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  const bad = kinds.filter((k) => !(DOCUMENT_FILE_KINDS as readonly string[]).includes(k));
  if (bad.length || !kinds.length) problem(`DOCUMENT_ALLOWED_TYPES: a list of ${DOCUMENT_FILE_KINDS.join(', ')}; got "${raw}"`);
  return {
    maxBytes: size('DOCUMENT_MAX_BYTES', '20mb'),
    allowedTypes: bad.length || !kinds.length ? [...DOCUMENT_FILE_KINDS] : (kinds as DocumentFileKind[]),
  };
});
