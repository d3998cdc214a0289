import { Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { BodyTypes } from '../common/http/route-config';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PassThrough } from 'node:stream';
import { CurrentUser, Levels } from '../common/auth/access.decorators';
import { AuthUser } from '../common/auth/auth-user';
import { DeletedDto } from '../common/crud/crud.controller';
import { ApiErrors, ApiListEnvelope, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { RawResponse } from '../common/envelope/raw-response.decorator';
import { XLSX_TYPE } from '../common/export/sheet-writers';
import { IMPORT_KIND_NAMES } from '../common/import/import-kinds.constants';
import { ApiListQuery } from '../common/paging/api-list-query.decorator';
import { ListQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { ValidationException } from '../common/errors/domain.exception';
import { IdParamPipe } from '../common/validation/id-param.pipe';
import { CommitImportQueryDto, CreateImportQueryDto, ImportDto, ImportErrorDto, TemplateQueryDto } from './dto/import.dto';
import { IMPORT_ERROR_LIST_SPEC, IMPORT_LIST_SPEC } from './import-views';
import { ImportsService } from './imports.service';

const ROWS =
  "Rows follow the JSON API's rules (the same validation, scope and field permissions, references, uniqueness; audit entries and events " +
  'with the uploader as actor and request id import-{id}). Headers are API field names or their labels (case and spacing ignored); ' +
  'references by id or by name (department, job_title, ...; supervisor by employee_id). Formulas are read as their cached values, never evaluated.';

/** Imports of CSV and XLSX files (docs/api/decisions.md §13). Admins; Restricted Admins for rows inside their departments. */
@ApiTags('Imports')
@ApiBearerAuth()
@Controller('imports')
@Levels('Admin', 'Restricted Admin')
export class ImportsController {
  constructor(private readonly imports: ImportsService) {}

  @Post()
  @BodyTypes(
    ['text/csv', XLSX_TYPE],
    'POST /imports takes the file itself as the body, not a form: Content-Type text/csv or the XLSX type ' +
      '(curl --data-binary @people.csv -H \'Content-Type: text/csv\' "$API/imports?kind=employees")',
  )
  @HttpCode(202)
  @ApiOperation({
    summary: 'Upload a file to import (the body is the file); 202 with the import, which a job checks and writes',
    description:
      `dry_run (default true) checks every row and writes nothing: the errors are at /imports/{id}/errors, and POST /imports/{id}/commit imports it. ` +
      `all-or-nothing (default) writes nothing when any row is invalid; valid-rows writes the valid ones. Size up to IMPORT_MAX_BYTES (413); ` +
      `the type comes from the bytes (415 when they are not what Content-Type says). ${ROWS}`,
  })
  @ApiConsumes('text/csv', XLSX_TYPE)
  @ApiBody({ schema: { type: 'string', format: 'binary' } })
  @ApiOkEnvelope(ImportDto, 'Accepted: the import, Queued', 202)
  @ApiErrors(400, 401, 403, 413, 415)
  create(@CurrentUser() caller: AuthUser, @Query() query: CreateImportQueryDto, @Req() req: FastifyRequest): Promise<ImportDto> {
    return this.imports.create(caller, query, {
      contentType: req.headers['content-type'],
      contentLength: req.headers['content-length'],
      disposition: req.headers['content-disposition'],
      body: req.body,
    });
  }

  @Get()
  @ApiOperation({ summary: 'Imports, newest first (a Restricted Admin sees its own)' })
  @ApiListQuery(IMPORT_LIST_SPEC)
  @ApiListEnvelope(ImportDto)
  @ApiErrors(400, 401, 403)
  list(@CurrentUser() caller: AuthUser, @Query() query: ListQueryDto): Promise<Page<ImportDto>> {
    return this.imports.list(caller, query);
  }

  @Get('templates/:kind')
  @RawResponse()
  @ApiOperation({ summary: 'A template of the kind: its columns and one example row (format=csv|xlsx)' })
  @ApiResponse({
    status: 200,
    description: 'The template file (attachment)',
    content: { 'text/csv': { schema: { type: 'string' } }, [XLSX_TYPE]: { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiErrors(400, 401, 403)
  async template(
    @CurrentUser() caller: AuthUser,
    @Param('kind') kind: string,
    @Query() query: TemplateQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PassThrough> {
    if (!(IMPORT_KIND_NAMES as readonly string[]).includes(kind)) {
      throw ValidationException.field('kind', `must be one of ${IMPORT_KIND_NAMES.join(', ')}`);
    }
    const file = await this.imports.template(kind, query.format ?? 'csv', caller);
    void reply.header('Content-Type', file.contentType).header('Content-Disposition', `attachment; filename="${file.fileName}"`);
    return file.body;
  }

  @Get(':id')
  @ApiOperation({ summary: 'An import: its state, counters and progress' })
  @ApiOkEnvelope(ImportDto)
  @ApiErrors(400, 401, 403, 404)
  get(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<ImportDto> {
    return this.imports.get(caller, id);
  }

  @Get(':id/errors')
  @ApiOperation({ summary: "The rows' problems, in row order (row 0: the header), as the JSON API words them" })
  @ApiListQuery(IMPORT_ERROR_LIST_SPEC)
  @ApiListEnvelope(ImportErrorDto)
  @ApiErrors(400, 401, 403, 404)
  errors(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Query() query: ListQueryDto,
  ): Promise<Page<ImportErrorDto>> {
    return this.imports.errors(caller, id, query);
  }

  @Post(':id/commit')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Import a validated dry run: its rows are checked again and written',
    description:
      '409 INVALID_STATE unless it is a Validated dry run; 409 CONFLICT when the dry run found invalid rows in all-or-nothing ' +
      '(fix the file, or commit with mode=valid-rows). Rows the data made invalid since the dry run are reported like any other.',
  })
  @ApiOkEnvelope(ImportDto, 'Accepted: the import, Queued', 202)
  @ApiErrors(400, 401, 403, 404, 409)
  commit(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Query() query: CommitImportQueryDto,
  ): Promise<ImportDto> {
    return this.imports.commit(caller, id, query);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Remove a finished import: its file and errors (what it imported stays); 409 while its job runs' })
  @ApiOkEnvelope(DeletedDto)
  @ApiErrors(400, 401, 403, 404, 409)
  remove(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<{ id: number }> {
    return this.imports.remove(caller, id);
  }
}
