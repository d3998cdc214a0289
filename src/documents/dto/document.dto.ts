import { ApiInt, ApiIntOptional } from '../../common/openapi/api-int';
import { AcceptsReadOnlyOf } from '../../common/validation/read-only';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';
import { IsCalendarDate, IsRefId, Nullable, OptionalText, Trim } from '../../common/validation/decorators';
import { DOCUMENT_STATUSES, DocumentStatus } from '../entities/document.entities';

/** What a file of a document is: the current one's on a document, each one's in its history. */
export class DocumentFileDto {
  @ApiProperty({ example: 'passport.pdf', description: 'the name it was uploaded under (without any directory part)' })
  file_name: string;
  @ApiProperty({ example: 'application/pdf', description: 'what its bytes are (decided by the service, not the client)' })
  content_type: string;
  @ApiInt({ description: 'bytes' }) size: number;
  @ApiProperty({ description: 'SHA-256 of the file, hex (also its ETag)' }) sha256: string;
  @ApiProperty({ type: String, format: 'date', nullable: true }) valid_from: string | null;
  @ApiProperty({ type: String, format: 'date', nullable: true }) valid_until: string | null;
  @ApiInt({ type: Number, nullable: true, description: 'the user who uploaded it' }) uploaded_by: number | null;
}

export class DocumentDto extends DocumentFileDto {
  @ApiInt() id: number;
  @ApiInt({ description: 'employee id' }) employee: number;
  @ApiInt({ description: 'document type id (/document-types)' }) document_type: number;
  @ApiProperty({ example: 'Passport' }) name: string;
  @ApiProperty({
    enum: DOCUMENT_STATUSES,
    description: 'Expiring from the first reminder before valid_until (the largest notify_days_before), Expired after it',
  })
  status: DocumentStatus;
  @ApiInt({ description: 'the current version (1 for the first upload)' }) version: number;
  @ApiProperty({ type: String, nullable: true }) notes: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class DocumentVersionDto extends DocumentFileDto {
  @ApiInt() version: number;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

/** The validity of a file: both optional; valid_until is required by a type that expires. */
class ValidityFields {
  @ApiPropertyOptional({ type: String, format: 'date', example: '2026-01-15' })
  @IsOptional()
  @IsCalendarDate()
  valid_from?: string;

  @ApiPropertyOptional({ type: String, format: 'date', example: '2036-01-14', description: 'required by a type that expires' })
  @IsOptional()
  @IsCalendarDate()
  valid_until?: string;
}

/** The form fields of POST /employees/{id}/documents, beside the `file` part. */
export class CreateDocumentFieldsDto extends ValidityFields {
  @ApiInt({ description: 'document type id (/document-types)' }) @IsRefId() document_type: number;

  @ApiPropertyOptional({ maxLength: 200, description: "default: the type's name" })
  @IsOptional()
  @Trim()
  @IsString()
  @Length(1, 200)
  name?: string;

  @OptionalText(2000, { multiLine: true }) notes?: string | null;
}

/** The form fields of POST .../versions, beside the `file` part: the renewed file's validity (and notes). */
export class NewVersionFieldsDto extends ValidityFields {
  @OptionalText(2000, { multiLine: true }) notes?: string | null;
}

/** PUT /employees/{id}/documents/{docId}: the metadata (the file changes by a new version). */
@AcceptsReadOnlyOf(() => DocumentDto)
export class UpdateDocumentDto {
  @ApiIntOptional({ description: 'document type id' }) @IsOptional() @IsRefId() document_type?: number;

  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @Trim()
  @IsString()
  @Length(1, 200)
  name?: string;

  @ApiPropertyOptional({ type: String, format: 'date', nullable: true })
  @IsOptional()
  @Nullable()
  @IsCalendarDate()
  valid_from?: string | null;

  @ApiPropertyOptional({ type: String, format: 'date', nullable: true, description: 'required by a type that expires' })
  @IsOptional()
  @Nullable()
  @IsCalendarDate()
  valid_until?: string | null;

  @OptionalText(2000, { multiLine: true }) notes?: string | null;
}

/** The multipart body of an upload, for the OpenAPI document. */
export const UPLOAD_SCHEMA = (fields: 'create' | 'version') => ({
  schema: {
    type: 'object',
    required: fields === 'create' ? ['file', 'document_type'] : ['file'],
    properties: {
      file: { type: 'string', format: 'binary', description: 'the document (PDF, PNG, JPEG, WebP, DOCX, XLSX or plain text)' },
      ...(fields === 'create'
        ? {
            document_type: { type: 'integer', description: 'document type id' },
            name: { type: 'string', maxLength: 200, description: "default: the type's name" },
          }
        : {}),
      valid_from: { type: 'string', format: 'date' },
      valid_until: { type: 'string', format: 'date' },
      notes: { type: 'string', maxLength: 2000 },
    },
  },
});
