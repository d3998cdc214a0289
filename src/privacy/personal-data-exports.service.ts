import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { recordAudit } from '../common/audit/audit-log';
import { AuthUser } from '../common/auth/auth-user';
import { DomainException, NotFoundException } from '../common/errors/domain.exception';
import { FileResponse } from '../common/http/file-response';
import { JobQueue } from '../common/queue/job-queue.service';
import { FILE_STORE, FileStore } from '../common/storage/file-store';
import { CompanyClock } from '../common/time/company-clock';
import { toWholeSecond } from '../common/time/instants';
import { EmployeeAccessService } from '../employees/core/employee-access.service';
import { withEmployeeLock } from '../employees/core/employee-lock';
import { PersonalDataExportDto, toPersonalDataExportDto } from './dto/personal-data-export.dto';
import { PersonalDataExport, PersonalDataExportStatus } from './entities/personal-data-export.entity';
import { exportJobId, PERSONAL_DATA_EXPORT_JOB } from './privacy.jobs';

/** How long an export's file is kept. */
export const EXPORT_KEPT_MS = 7 * 24 * 3600_000;
/** The states of an export whose job has not ended: a second request meanwhile is refused. */
export const UNFINISHED: readonly PersonalDataExportStatus[] = ['Queued', 'Running'];
export const EXPORTS_RESOURCE = 'personal-data-exports';

/**
 * Subject-access exports (issue 69, GDPR art. 15; docs/api/privacy.md): asked for by the employee
 * itself or an Admin, built by a job (PersonalDataExportRunner), read and downloaded only by whoever
 * asked and the Admins, each download audited.
 */
@Injectable()
export class PersonalDataExportsService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(FILE_STORE) private readonly store: FileStore,
    private readonly access: EmployeeAccessService,
    private readonly jobs: JobQueue,
    private readonly clock: CompanyClock,
  ) {}

  /** POST /employees/{id}/personal-data-exports: 404 unseen, 403 for another's data, 409 naming the export that runs. */
  async request(caller: AuthUser, employeeId: number): Promise<PersonalDataExportDto> {
    await this.access.visible(caller, employeeId);
    if (caller.level !== 'Admin' && caller.employeeId !== employeeId)
      throw new DomainException('FORBIDDEN', "Only the employee itself or an Admin asks for an employee's personal data");
    const record = await withEmployeeLock(this.ds, employeeId, async (em) => {
      const running = await em
        .getRepository(PersonalDataExport)
        .findOne({ where: { employeeId, status: In([...UNFINISHED]) }, order: { id: 'ASC' } });
      if (running)
        throw new DomainException(
          'CONFLICT',
          `Export ${running.id} of employee ${employeeId} is ${running.status}: wait for it`,
          [{ field: 'id', message: String(running.id) }],
        );
      const now = toWholeSecond(this.clock.now());
      const saved = await em.getRepository(PersonalDataExport).save(
        em.getRepository(PersonalDataExport).create({
          employeeId,
          requestedBy: caller.id,
          status: 'Queued',
          fileKey: null,
          size: null,
          error: null,
          restarts: 0,
          createdAt: now,
          updatedAt: now,
          finishedAt: null,
          expiresAt: new Date(now.getTime() + EXPORT_KEPT_MS),
        }),
      );
      await recordAudit(em, { action: 'create', resource: EXPORTS_RESOURCE, resourceId: saved.id, employee: employeeId });
      return saved;
    });
    await this.jobs.add(PERSONAL_DATA_EXPORT_JOB, { exportId: record.id }, { jobId: exportJobId(record.id) });
    return toPersonalDataExportDto(record);
  }

  /** GET /personal-data-exports/{id}. */
  async get(caller: AuthUser, id: number): Promise<PersonalDataExportDto> {
    return toPersonalDataExportDto(await this.readable(caller, id));
  }

  /** GET /personal-data-exports/{id}/file: the ZIP of a Ready export (409 otherwise), its download audited. */
  async file(caller: AuthUser, id: number): Promise<FileResponse> {
    const record = await this.readable(caller, id);
    if (record.status !== 'Ready' || !record.fileKey)
      throw new DomainException('INVALID_STATE', `Export ${id} is ${record.status}: only a Ready export is downloaded`, [
        { field: 'status', message: record.status },
      ]);
    const opened = await this.store.open(record.fileKey);
    if (!opened) throw new NotFoundException('File');
    await recordAudit(this.ds.manager, {
      action: 'download',
      resource: EXPORTS_RESOURCE,
      resourceId: record.id,
      employee: record.employeeId,
      after: { size: opened.size },
    });
    return {
      status: 200,
      body: opened.body,
      headers: {
        'Content-Type': 'application/zip',
        'Content-Disposition': `attachment; filename="personal-data-${record.employeeId}-${record.id}.zip"`,
        'Content-Length': String(opened.size),
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    };
  }

  /** The export, for whoever asked for it and the Admins; 404 for anyone else. */
  private async readable(caller: AuthUser, id: number): Promise<PersonalDataExport> {
    const record = await this.ds.getRepository(PersonalDataExport).findOneBy({ id });
    if (!record || (caller.level !== 'Admin' && record.requestedBy !== caller.id)) throw new NotFoundException('Export');
    return record;
  }
}
