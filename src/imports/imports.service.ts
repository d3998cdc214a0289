import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PassThrough, Readable } from 'node:stream';
import { DataSource } from 'typeorm';
import { recordAudit } from '../common/audit/audit-log';
import { AuthUser } from '../common/auth/auth-user';
import { transaction } from '../common/database/transaction';
import { DomainException, NotFoundException, ValidationException } from '../common/errors/domain.exception';
import { csvWriter, ExportColumn, xlsxWriter, XLSX_TYPE } from '../common/export/sheet-writers';
import { ImportKind, ImportKinds } from '../common/import/import-kind';
import { sniffFormat } from '../common/import/sheet-readers';
import { findTablePage, parseListQuery } from '../common/paging/list-request';
import { ListQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { JobQueue } from '../common/queue/job-queue.service';
import { workerDeathsReason } from '../common/queue/queue.constants';
import { CommitImportQueryDto, CreateImportQueryDto, ImportDto, ImportErrorDto } from './dto/import.dto';
import { ImportErrorRecord, ImportRecord } from './entities/import.entities';
import { ImportFiles } from './import-files';
import { fileNameOf, IMPORT_ERROR_LIST_SPEC, IMPORT_LIST_SPEC, toImportDto, TYPES } from './import-views';
import { ImportRunner } from './import-runner.service';
import { rowsOf } from './import-tally';
import { IMPORT_JOB, importJobId, RECOVER_IMPORTS_EVERY_MS, RECOVER_IMPORTS_JOB } from './imports.jobs';
import { ImportsRepository, RUNNING } from './imports.repository';
import { IMPORT_STATES } from './imports.states';
import { AppConfig } from '../config/config';
import { Inject } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';

/** How long a validated dry run keeps its file for a commit. */
export const DRY_RUN_FILE_DAYS = 7;

/**
 * Imports (docs/api/decisions.md §13): uploads, their records and errors, commits, templates. The rows are the
 * kinds' business (ImportKinds); the job is ImportRunner's.
 */
@Injectable()
export class ImportsService implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly kinds: ImportKinds,
    private readonly files: ImportFiles,
    private readonly runner: ImportRunner,
    private readonly jobs: JobQueue,
    private readonly repository: ImportsRepository,
  ) {}

  onModuleInit(): void {
    this.jobs.register(
      IMPORT_JOB,
      ({ importId }, ctx) => this.runner.run(importId, ctx),
      undefined,
      ({ importId }, reason) => this.runner.abandon(importId, reason),
    );
    this.jobs.register(RECOVER_IMPORTS_JOB, () => this.recoverStalled());
    void this.jobs.schedule(RECOVER_IMPORTS_JOB, RECOVER_IMPORTS_EVERY_MS); // before the start: nothing to wait for
  }

  private kind(name: string): ImportKind {
    const kind = this.kinds.get(name);
    if (!kind) throw ValidationException.field('kind', 'is not available in this installation');
    return kind;
  }

  async create(
    caller: AuthUser,
    query: CreateImportQueryDto,
    upload: {
      contentType: string | undefined;
      contentLength: string | undefined;
      disposition: string | undefined;
      body: unknown;
    },
  ): Promise<ImportDto> {
    const kind = this.kind(query.kind);
    if (kind.needsPayroll && query.payroll === undefined)
      throw ValidationException.field('payroll', `is required for ${kind.kind}`);
    if (!kind.needsPayroll && query.payroll !== undefined)
      throw ValidationException.field('payroll', `is not a parameter of ${kind.kind}`);
    const declared = TYPES[(upload.contentType ?? '').split(';')[0].trim().toLowerCase()];
    if (!declared || !(upload.body instanceof Readable)) {
      throw new DomainException('UNSUPPORTED_MEDIA_TYPE', `The body is the file: Content-Type text/csv or ${XLSX_TYPE}`);
    }
    if (Number(upload.contentLength) > this.config.imports.maxBytes) {
      upload.body.resume();
      throw new DomainException(
        'PAYLOAD_TOO_LARGE',
        `The file is larger than IMPORT_MAX_BYTES (${this.config.imports.maxBytes} bytes)`,
      );
    }
    const stored = await this.files.save(upload.body);
    const format = sniffFormat(stored.head);
    if (format !== declared) {
      await this.files.discard(stored.key);
      throw new DomainException(
        'UNSUPPORTED_MEDIA_TYPE',
        stored.bytes === 0
          ? 'The file is empty'
          : `The body is not ${declared === 'csv' ? 'a CSV (text) file' : 'an XLSX workbook'}`,
      );
    }
    const record = await transaction(this.ds, async (em) => {
      const saved = await em.getRepository(ImportRecord).save(
        em.getRepository(ImportRecord).create({
          kind: kind.kind,
          fileName: fileNameOf(upload.disposition, format),
          format,
          fileKey: stored.key,
          fileBytes: stored.bytes,
          dryRun: query.dry_run !== 'false',
          mode: query.mode ?? 'all-or-nothing',
          status: 'Queued',
          payrollId: query.payroll ?? null,
          rowsTotal: 0,
          rowsValid: 0,
          rowsFailed: 0,
          rowsDone: 0,
          progress: 0,
          error: null,
          claim: null,
          createdBy: caller.id,
          updatedAt: new Date(),
          finishedAt: null,
        }),
      );
      await recordAudit(em, {
        action: 'create',
        resource: 'imports',
        resourceId: saved.id,
        after: { kind: saved.kind, file_name: saved.fileName, dry_run: saved.dryRun, mode: saved.mode, bytes: stored.bytes },
      });
      return saved;
    });
    await this.enqueue(record);
    return toImportDto(record);
  }

  private async enqueue(record: ImportRecord, suffix = ''): Promise<void> {
    await this.jobs.add(
      IMPORT_JOB,
      { importId: record.id },
      { jobId: importJobId(record.id, record.dryRun ? 'validate' : 'import') + suffix },
    );
  }

  /** Admin: every import; Restricted Admin: its own. */
  async list(caller: AuthUser, query: ListQueryDto): Promise<Page<ImportDto>> {
    const request = parseListQuery(query, IMPORT_LIST_SPEC);
    const page = await findTablePage(
      this.ds.getRepository(ImportRecord),
      'i',
      request,
      caller.level === 'Admin' ? {} : { created_by: caller.id },
    );
    return page.map(toImportDto);
  }

  /** The import, when the caller may see it (its own, or any for an Admin); 404 otherwise. */
  private async visible(caller: AuthUser, id: number): Promise<ImportRecord> {
    const record = await this.ds.getRepository(ImportRecord).findOne({ where: { id } });
    if (!record || (caller.level !== 'Admin' && record.createdBy !== caller.id)) throw new NotFoundException('Import');
    return record;
  }

  async get(caller: AuthUser, id: number): Promise<ImportDto> {
    return toImportDto(await this.visible(caller, id));
  }

  async errors(caller: AuthUser, id: number, query: ListQueryDto): Promise<Page<ImportErrorDto>> {
    const request = parseListQuery(query, IMPORT_ERROR_LIST_SPEC);
    await this.visible(caller, id);
    const page = await findTablePage(this.ds.getRepository(ImportErrorRecord), 'r', request, { import_id: id });

    return page.map((e) => ({ row: e.row, column: e.column, field: e.field, message: e.message }));
  }

  /**
   * Turns a validated dry run into the import: its file is read and every row checked again (the
   * data may have changed since), then written; 409 when it is not a validated dry run, or when in
   * all-or-nothing it found invalid rows (fix the file, or commit with mode=valid-rows).
   */
  async commit(caller: AuthUser, id: number, query: CommitImportQueryDto): Promise<ImportDto> {
    const record = await this.visible(caller, id);
    IMPORT_STATES.assert('commit', record.status);
    if (!record.dryRun) throw IMPORT_STATES.invalid('commit', record.status);
    const mode = query.mode ?? record.mode;
    if (mode === 'all-or-nothing' && record.rowsFailed > 0) {
      throw new DomainException(
        'CONFLICT',
        `The dry run found ${rowsOf(record.rowsFailed, 'invalid row')}: fix the file and import it again, or commit with mode=valid-rows`,
      );
    }
    if (!record.fileKey) throw new DomainException('CONFLICT', 'The file of this dry run is no longer stored: upload it again');
    const moved = await transaction(this.ds, async (em) => {
      const ok = await IMPORT_STATES.move(em, ImportRecord, { id, status: 'Validated' }, 'commit', {
        dryRun: false,
        mode,
        progress: 0,
        rowsTotal: 0,
        rowsValid: 0,
        rowsFailed: 0,
        rowsDone: 0,
        finishedAt: null,
        updatedAt: new Date(),
      });
      if (!ok) return false;
      // The import reports its own rows' errors (the data may have changed since the dry run).
      await this.repository.deleteErrors(em, id);
      await recordAudit(em, { action: 'commit', resource: 'imports', resourceId: id, after: { mode } });
      return true;
    });
    if (!moved) throw IMPORT_STATES.invalid('commit', (await this.visible(caller, id)).status);
    const committed = await this.visible(caller, id);
    await this.enqueue(committed);
    return toImportDto(committed);
  }

  /** Removes a finished import: its file, its errors, its record (what it imported stays). */
  async remove(caller: AuthUser, id: number): Promise<{ id: number }> {
    const record = await this.visible(caller, id);
    IMPORT_STATES.assert('remove', record.status);
    await this.files.remove(record);
    await transaction(this.ds, async (em) => {
      await em.delete(ImportRecord, { id, status: record.status });
      await recordAudit(em, {
        action: 'delete',
        resource: 'imports',
        resourceId: id,
        before: { kind: record.kind, file_name: record.fileName },
      });
    });
    return { id };
  }

  /** A template of the kind: its columns (API field names; the caller's custom fields for employees) and one example row. */
  async template(
    name: string,
    format: 'csv' | 'xlsx',
    caller: AuthUser,
  ): Promise<{ body: PassThrough; contentType: string; fileName: string }> {
    const kind = this.kind(name);
    const own = kind.columnsFor ? await kind.columnsFor(caller) : kind.columns;
    const columns: ExportColumn[] = own.map((c) => ({
      field: c.field,
      kind: c.type === 'date' ? 'date' : c.type === 'date-time' ? 'date-time' : 'other',
    }));
    const example = Object.fromEntries(own.map((c) => [c.field, c.example]));
    const body = new PassThrough();
    const writer = format === 'csv' ? await csvWriter(body, columns) : await xlsxWriter(body, columns, kind.kind);
    await writer.rows([example]);
    void writer.end();
    return {
      body,
      contentType: format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_TYPE,
      fileName: `${kind.kind}-template.${format}`,
    };
  }

  /**
   * Removes the files of dry runs validated more than `days` ago and never committed (the daily
   * purge): their record and errors stay; a commit then answers 409, upload the file again.
   */
  async purgeStaleFiles(days = DRY_RUN_FILE_DAYS): Promise<number> {
    const stale = await this.repository.staleDryRuns(new Date(Date.now() - days * 86_400_000));
    for (const record of stale) await this.files.remove(record);
    return stale.length;
  }

  /**
   * Imports still in a job's state, untouched for IMPORT_STALLED_AFTER, whose job is not live (its
   * process died; the in-process runner keeps nothing across a restart): their job is added again,
   * and resumes them (a valid-rows import after its rows done, anything else from the start). An
   * import whose attempt died JOB_MAX_WORKER_DEATHS times (a file that kills whoever reads it)
   * ends Failed instead.
   */
  async recoverStalled(): Promise<number> {
    const before = new Date(Date.now() - this.config.imports.stalledSec * 1000);
    let n = 0;
    for (const record of await this.repository.stalled(before)) {
      const jobId = importJobId(record.id, record.dryRun ? 'validate' : 'import');
      if (!RUNNING.includes(record.status) || (await this.jobs.isLive(IMPORT_JOB, jobId))) continue;
      // Queued: its job was lost before it started, which kills nothing. A running state: its attempt died.
      const died = record.status !== 'Queued';
      if (died && record.restarts + 1 >= this.config.jobMaxDeaths) {
        await this.runner.abandon(record.id, workerDeathsReason(record.restarts + 1));
        continue;
      }
      if (died)
        await this.ds
          .getRepository(ImportRecord)
          .update({ id: record.id, status: record.status, restarts: record.restarts }, { restarts: record.restarts + 1 });
      await this.enqueue(record, `-r${record.updatedAt.getTime()}`);
      n++;
    }
    return n;
  }
}
