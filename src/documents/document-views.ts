import { DocumentDto, DocumentVersionDto } from './dto/document.dto';
import { DocumentRecord, DocumentVersion } from './entities/document.entities';

/** The audit log's resource of documents. */
export const DOCUMENTS_RESOURCE = 'employees/documents';

export function toDocumentDto(d: DocumentRecord): DocumentDto {
  return {
    id: d.id,
    employee: d.employeeId,
    document_type: d.documentTypeId,
    name: d.name,
    file_name: d.fileName,
    content_type: d.contentType,
    size: d.size,
    sha256: d.sha256,
    valid_from: d.validFrom,
    valid_until: d.validUntil,
    status: d.status,
    version: d.version,
    notes: d.notes,
    uploaded_by: d.uploadedBy,
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
  };
}

export function toVersionDto(v: DocumentVersion): DocumentVersionDto {
  return {
    version: v.version,
    file_name: v.fileName,
    content_type: v.contentType,
    size: v.size,
    sha256: v.sha256,
    valid_from: v.validFrom,
    valid_until: v.validUntil,
    uploaded_by: v.uploadedBy,
    created_at: v.createdAt.toISOString(),
  };
}

/** What the audit log keeps of a document: its metadata, never the file or its key. */
export function auditView(d: DocumentRecord): object {
  const { created_at: _c, updated_at: _u, ...view } = toDocumentDto(d);
  return view;
}
