import { KIND_TYPES } from './document-files';
import { BodyTypes } from '../common/http/route-config';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { Authenticated, CurrentUser, Levels } from '../common/auth/access.decorators';
import { AuthUser } from '../common/auth/auth-user';
import { DeletedDto } from '../common/crud/crud.controller';
import { ApiArrayEnvelope, ApiErrors, ApiListEnvelope, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { RawResponse } from '../common/envelope/raw-response.decorator';
import { fileConditions, sendFile } from '../common/http/file-response';
import { ApiListQuery } from '../common/paging/api-list-query.decorator';
import { SearchableListQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { IdParamPipe } from '../common/validation/id-param.pipe';
import { DOCUMENT_LIST_SPEC, EMPLOYEE_DOCUMENT_LIST_SPEC } from './documents.repository';
import { DocumentFilesService } from './document-files.service';
import { DocumentsService } from './documents.service';
import { DocumentDto, DocumentVersionDto, UPLOAD_SCHEMA, UpdateDocumentDto } from './dto/document.dto';

const WHO =
  'Admins and Restricted Admins in scope: every document; a Manager: its direct reports’ documents of types visible to managers; ' +
  'an Employee: its own of types visible to employees. Others: 404.';

const UPLOAD =
  'multipart/form-data: a `file` part and the fields. Up to DOCUMENT_MAX_BYTES (default 20 MiB; 413, nothing kept). The type is ' +
  "decided by the file's bytes and must be allowed (PDF, PNG, JPEG, WebP, DOCX, XLSX, plain text by default; never HTML or SVG) " +
  "and agree with the part's Content-Type and the file name's ending (415 otherwise). The file is stored under a random key; " +
  'its name is only offered back (without any directory part).';

const FILE_RESPONSE = {
  status: 200,
  description:
    'The file, as an attachment (Content-Disposition with an RFC 6266/5987 file name), with ETag (its sha256), X-Content-Type-Options: ' +
    'nosniff and Content-Security-Policy: sandbox. `Range: bytes=a-b` answers 206 with Content-Range (416 past the end); ' +
    '`If-None-Match` with the ETag answers 304. Each download is in the audit log.',
  // The file's own type (issue 41: documented as octet-stream only, while a PDF is sent as application/pdf).
  content: Object.fromEntries(
    [...new Set([...Object.values(KIND_TYPES), 'application/octet-stream'])].map((type) => [
      type,
      { schema: { type: 'string', format: 'binary' } },
    ]),
  ),
};

/** An employee's documents (docs/api/decisions.md §14). */
@ApiTags('Documents')
@ApiBearerAuth()
@Controller('employees/:id/documents')
@Authenticated()
export class EmployeeDocumentsController {
  constructor(
    private readonly documents: DocumentsService,
    private readonly files: DocumentFilesService,
  ) {}

  @Post()
  @BodyTypes(['multipart/form-data'])
  @HttpCode(200)
  @ApiOperation({
    summary: 'Upload a document (HR; the employee itself where the type has employee_may_upload)',
    description: `${UPLOAD} Audited (upload).`,
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody(UPLOAD_SCHEMA('create'))
  @ApiOkEnvelope(DocumentDto, 'The document, stored')
  @ApiErrors(400, 401, 403, 404, 413, 415)
  upload(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Req() req: FastifyRequest,
  ): Promise<DocumentDto> {
    return this.documents.upload(caller, id, { headers: req.headers, body: req.body });
  }

  @Get()
  @ApiOperation({ summary: "The employee's documents, newest first", description: WHO })
  @ApiListQuery(EMPLOYEE_DOCUMENT_LIST_SPEC)
  @ApiListEnvelope(DocumentDto)
  @ApiErrors(400, 401, 404)
  list(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Query() query: SearchableListQueryDto,
  ): Promise<Page<DocumentDto>> {
    return this.documents.ofEmployee(caller, id, query);
  }

  @Get(':docId')
  @ApiOperation({ summary: 'A document: its current version', description: WHO })
  @ApiOkEnvelope(DocumentDto)
  @ApiErrors(400, 401, 404)
  get(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Param('docId', new IdParamPipe()) docId: number,
  ): Promise<DocumentDto> {
    return this.documents.get(caller, id, docId);
  }

  @Put(':docId')
  @ApiOperation({
    summary: "Change a document's metadata (HR): type, name, validity, notes; the status follows",
    description: 'The file changes by a new version. Audited (update).',
  })
  @ApiOkEnvelope(DocumentDto)
  @ApiErrors(400, 401, 403, 404)
  update(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Param('docId', new IdParamPipe()) docId: number,
    @Body() dto: UpdateDocumentDto,
  ): Promise<DocumentDto> {
    return this.documents.update(caller, id, docId, dto);
  }

  @Delete(':docId')
  @ApiOperation({
    summary: 'Delete a document with its versions (HR); its files are removed by a job, retried until they are gone',
    description: 'Audited (delete).',
  })
  @ApiOkEnvelope(DeletedDto)
  @ApiErrors(400, 401, 403, 404)
  remove(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Param('docId', new IdParamPipe()) docId: number,
  ): Promise<{ id: number }> {
    return this.documents.remove(caller, id, docId);
  }

  @Get(':docId/file')
  @RawResponse()
  @ApiOperation({ summary: "The document's current file", description: WHO })
  @ApiResponse(FILE_RESPONSE)
  @ApiResponse({ status: 206, description: 'The range asked for', content: FILE_RESPONSE.content })
  @ApiResponse({ status: 304, description: 'Not modified (If-None-Match)' })
  @ApiErrors(400, 401, 404, 416)
  async file(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Param('docId', new IdParamPipe()) docId: number,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Readable | string> {
    return sendFile(reply, await this.files.file(caller, id, docId, null, fileConditions(req)));
  }

  @Post(':docId/versions')
  @BodyTypes(['multipart/form-data'])
  @HttpCode(200)
  @ApiOperation({
    summary: 'Upload a renewed file (a new passport): it becomes the current version, the old ones stay readable',
    description: `${UPLOAD} The fields valid_from, valid_until and notes describe the new file. Audited (new-version); the document's open reminder tasks are completed.`,
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody(UPLOAD_SCHEMA('version'))
  @ApiOkEnvelope(DocumentDto, 'The document, at its new version')
  @ApiErrors(400, 401, 403, 404, 413, 415)
  addVersion(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Param('docId', new IdParamPipe()) docId: number,
    @Req() req: FastifyRequest,
  ): Promise<DocumentDto> {
    return this.documents.addVersion(caller, id, docId, { headers: req.headers, body: req.body });
  }

  @Get(':docId/versions')
  @ApiOperation({ summary: "The document's versions, newest first (the current one included)", description: WHO })
  @ApiArrayEnvelope(DocumentVersionDto)
  @ApiErrors(400, 401, 404)
  versions(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Param('docId', new IdParamPipe()) docId: number,
  ): Promise<DocumentVersionDto[]> {
    return this.documents.versions(caller, id, docId);
  }

  @Get(':docId/versions/:n/file')
  @RawResponse()
  @ApiOperation({ summary: 'The file of version n', description: WHO })
  @ApiResponse(FILE_RESPONSE)
  @ApiResponse({ status: 206, description: 'The range asked for', content: FILE_RESPONSE.content })
  @ApiResponse({ status: 304, description: 'Not modified (If-None-Match)' })
  @ApiErrors(400, 401, 404, 416)
  async versionFile(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Param('docId', new IdParamPipe()) docId: number,
    @Param('n', new IdParamPipe()) n: number,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Readable | string> {
    return sendFile(reply, await this.files.file(caller, id, docId, n, fileConditions(req)));
  }
}

/** The company's documents (docs/api/decisions.md §14): "what expires this quarter". */
@ApiTags('Documents')
@ApiBearerAuth()
@Controller('documents')
@Levels('Admin', 'Restricted Admin')
export class DocumentsController {
  constructor(private readonly documents: DocumentsService) {}

  @Get()
  @ApiOperation({
    summary: "Every employee's documents (a Restricted Admin: its departments'), soonest to expire first",
    description:
      'filters: document_type, status, employee, valid_until_before (a day: documents valid until that day or earlier), e.g. ' +
      '{"status":["Expiring","Expired"],"valid_until_before":"2026-12-31"}.',
  })
  @ApiListQuery(DOCUMENT_LIST_SPEC)
  @ApiListEnvelope(DocumentDto)
  @ApiErrors(400, 401, 403)
  list(@CurrentUser() caller: AuthUser, @Query() query: SearchableListQueryDto): Promise<Page<DocumentDto>> {
    return this.documents.all(caller, query);
  }
}
