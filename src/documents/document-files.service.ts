import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { recordAudit } from '../common/audit/audit-log';
import { AuthUser } from '../common/auth/auth-user';
import { DomainException, NotFoundException } from '../common/errors/domain.exception';
import { FileConditions, FileResponse } from '../common/http/file-response';
import { ByteRange, FILE_STORE, FileStore } from '../common/storage/file-store';
import { DocumentAccessService } from './document-access.service';
import { attachmentDisposition } from './document-files';
import { DOCUMENTS_RESOURCE } from './document-views';
import { DocumentsRepository } from './documents.repository';
import { DocumentRecord } from './entities/document.entities';

/** Documents' files served over HTTP: conditional requests, one byte range, each download audited. */
@Injectable()
export class DocumentFilesService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(FILE_STORE) private readonly store: FileStore,
    private readonly repository: DocumentsRepository,
    private readonly access: DocumentAccessService,
  ) {}

  /**
   * A document's file (the current one, or version `version`), the download audited: who read
   * whose passport. `range`: the Range header (one range; others are answered with the whole file).
   */
  async file(
    caller: AuthUser,
    employeeId: number,
    id: number,
    version: number | null,
    conditions: FileConditions,
  ): Promise<FileResponse> {
    const { doc } = await this.access.readable(caller, employeeId, id);
    return this.serve(doc, version, conditions);
  }

  async serve(doc: DocumentRecord, version: number | null, conditions: FileConditions): Promise<FileResponse> {
    const file = version === null || version === doc.version ? doc : await this.repository.version(doc.id, version);
    if (!file) throw new NotFoundException('Version');
    const etag = `"${file.sha256}"`;
    const common = {
      ETag: etag,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "sandbox; default-src 'none'",
      'Accept-Ranges': 'bytes',
    };
    if (conditions.ifNoneMatch && conditions.ifNoneMatch.split(',').some((t) => t.trim() === etag)) {
      return { status: 304, headers: common };
    }
    const range =
      conditions.range && (!conditions.ifRange || conditions.ifRange.trim() === etag)
        ? parseRange(conditions.range, file.size)
        : null;
    const opened = await this.store.open(file.fileKey, range ?? undefined);
    if (!opened) throw new NotFoundException('File');
    await recordAudit(this.ds.manager, {
      action: 'download',
      resource: DOCUMENTS_RESOURCE,
      resourceId: doc.id,
      employee: doc.employeeId,
      after: {
        version: version ?? doc.version,
        file_name: file.fileName,
        ...(range ? { range: `${range.start}-${range.end}` } : {}),
      },
    });
    const headers: Record<string, string> = {
      ...common,
      'Content-Type': file.contentType === 'text/plain' ? 'text/plain; charset=utf-8' : file.contentType,
      'Content-Disposition': attachmentDisposition(file.fileName),
      'Content-Length': String(range ? range.end - range.start + 1 : file.size),
    };
    if (range) headers['Content-Range'] = `bytes ${range.start}-${range.end}/${file.size}`;
    return { body: opened.body, status: range ? 206 : 200, headers };
  }
}

/**
 * One byte range of `bytes=a-b`, `bytes=a-` or `bytes=-n` (RFC 9110), clamped to the file; null
 * for a header we answer with the whole file (several ranges, another unit, garbage). 416 when the
 * range starts past the end.
 */
export function parseRange(header: string, size: number): ByteRange | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) throw unsatisfiable(size);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== '' && Number(m[2]) < start) return null;
  }
  if (start >= size) throw unsatisfiable(size);
  return { start, end };
}

function unsatisfiable(size: number): DomainException {
  return new DomainException('RANGE_NOT_SATISFIABLE', `The range is outside the file (${size} bytes)`, undefined, {
    'Content-Range': `bytes */${size}`,
  });
}
