import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { AuthUser } from '../common/auth/auth-user';
import { DomainException, ErrorDetail, NotFoundException, ValidationException } from '../common/errors/domain.exception';
import { ListSpec } from '../common/paging/list-request';
import { recordAudit } from '../common/audit/audit-log';
import { withEmployeeLock } from '../employees/core/employee-lock';
import { EmployeesService } from '../employees/employees.service';
import { TIME_ENTRY_DAYS } from './time-entry-days';
import { EmployeeAccessService, employeeRef, DecisionSubject } from '../employees/core/employee-access.service';
import { ApprovalsService } from '../approvals/approvals.service';
import { Page } from '../common/paging/page';
import { EmployeesRepository, RecordList } from '../employees/core/employees.repository';
import { TimesheetsRepository } from './timesheets.repository';
import { TimeEntryAction, TIME_ENTRY_STATES } from './timesheets.states';
import { ReferenceCrud } from '../common/crud/crud';
import { CreateTimeEntryDto, ProjectDto, TimeEntryDto, TimeEntryRowDto, UpdateTimeEntryDto } from './dto/timesheet.dto';
import { Project, TIME_ENTRY_STATUSES, TimeEntry, TimeEntryStatus } from './entities/timesheet.entities';
import './timesheets.events';

export const TIME_ENTRY_LIST_SPEC: ListSpec = {
  defaultSort: { field: 'date', order: 'descend' },
  dateRange: { start: 't.date' },
  updatedAt: 't.updated_at',
  idColumn: 't.id',
  sortFields: { id: 't.id', date: 't.date' },
  filterFields: {
    employee: { column: 't.employee_id', type: 'int' },
    project: { column: 't.project_id', type: 'int' },
    status: { column: 't.status', type: 'string', values: TIME_ENTRY_STATUSES },
  },
};

/** Entries the owner may still change. */

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

export function toTimeEntryDto(t: TimeEntry): TimeEntryRowDto {
  return {
    id: t.id,
    employee: t.employeeId,
    project: t.projectId,
    date: t.date,
    start: t.start,
    end: t.end,
    hours: Math.round((t.minutes / 60) * 100) / 100,
    details: t.details,
    status: t.status,
  };
}

/** What an approver's inbox says of an entry: "Time entry 2026-12-01 09:00–17:00". */
export const timeSummary = (t: TimeEntry): string => `Time entry ${t.date} ${t.start}–${t.end}`;

/**
 * Projects and time entries. An employee records its own entries (Admins and Restricted Admins in
 * scope may record for others), changes them while Draft or Rejected, and submits them; the
 * supervisor, approver1..3 or an administrator approves or rejects submitted entries, never its own.
 */
/** A decision is an event (internal: the approval tasks are done, the employee hears of it). */
const decisionEvent = (to: TimeEntryStatus) =>
  to === 'Approved' || to === 'Rejected' ? ('timesheet.decided' as const) : undefined;

@Injectable()
export class TimesheetsService {
  readonly projects: ReferenceCrud<Project, ProjectDto>;

  /** Newest first unless sorted otherwise; paging, filters and the from/to range (docs/api/decisions.md §6, §9). */
  readonly list: RecordList<TimeEntryDto>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(Project) private readonly projectRepo: Repository<Project>,
    @InjectRepository(TimeEntry) private readonly timeEntryRepo: Repository<TimeEntry>,
    private readonly access: EmployeeAccessService,
    employeeRecords: EmployeesRepository,
    private readonly repository: TimesheetsRepository,
    private readonly employees: EmployeesService,
    private readonly approvals: ApprovalsService,
  ) {
    const list = employeeRecords.recordList(timeEntryRepo, 't', TIME_ENTRY_LIST_SPEC, toTimeEntryDto);
    // Each row with its chain (issue 45): two queries a page.
    this.list = async (caller, query, employeeId) => this.withApprovals(await list(caller, query, employeeId));
    this.projects = new ReferenceCrud<Project, ProjectDto>({
      label: 'Project',
      resource: 'projects',
      repo: dataSource.getRepository(Project),
      fields: { name: 'name', client: 'client' },
    });
  }

  /** time_entry_days follows employees between departments and out of the company. */
  onModuleInit(): void {
    TIME_ENTRY_DAYS.followEmployees(this.employees);
  }

  async create(caller: AuthUser, dto: CreateTimeEntryDto): Promise<TimeEntryDto> {
    const employeeId = await this.access.subjectOf(caller, dto.employee, ['Admin', 'Restricted Admin']);
    const entry = this.timeEntryRepo.create({
      employeeId,
      projectId: dto.project ?? null,
      date: dto.date,
      start: dto.start,
      end: dto.end,
      details: dto.details ?? null,
      status: 'Draft',
      decidedBy: null,
      decidedAt: null,
    });
    return this.write(entry);
  }

  async update(caller: AuthUser, id: number, dto: UpdateTimeEntryDto): Promise<TimeEntryDto> {
    const { entry } = await this.editable(caller, id);
    if (dto.employee !== undefined && dto.employee !== entry.employeeId)
      throw ValidationException.field('employee', 'cannot be changed');
    if (dto.project !== undefined) entry.projectId = dto.project;
    if (dto.date !== undefined) entry.date = dto.date;
    if (dto.start !== undefined) entry.start = dto.start;
    if (dto.end !== undefined) entry.end = dto.end;
    if (dto.details !== undefined) entry.details = dto.details;
    entry.status = 'Draft'; // a corrected rejected entry starts over
    return this.write(entry);
  }

  async remove(caller: AuthUser, id: number): Promise<{ id: number }> {
    const { entry } = await this.editable(caller, id);
    await withEmployeeLock(this.dataSource, entry.employeeId, async (em) => {
      const before = await em.findOne(TimeEntry, { where: { id } });
      if (!before) return;
      await em.delete(TimeEntry, { id });
      await TIME_ENTRY_DAYS.change(em, before, null);
      await recordAudit(em, {
        action: 'delete',
        resource: 'timesheets',
        resourceId: id,
        employee: before.employeeId,
        before: toTimeEntryDto(before),
      });
    });
    return { id };
  }

  async submit(caller: AuthUser, id: number): Promise<TimeEntryDto> {
    const { entry } = await this.editable(caller, id);
    const updated = await this.transition(entry, 'submit', null);
    return updated;
  }

  /** A decision on the open step of the entry's chain (issue 45): the last step's approval or any rejection moves the entry. */
  async decide(caller: AuthUser, id: number, to: 'Approved' | 'Rejected', comment?: string | null): Promise<TimeEntryDto> {
    const { entry, employee } = await this.load(caller, id);
    if (caller.employeeId === entry.employeeId) throw new DomainException('FORBIDDEN', 'You cannot decide your own time entries');
    const administers = await this.access.administers(caller, employeeRef(employee));
    const expectedStep = await this.approvals.openStep('time', id);
    const action = to === 'Approved' ? 'approve' : 'reject';
    const after = await withEmployeeLock(this.dataSource, entry.employeeId, async (em) => {
      const current = await em.getRepository(TimeEntry).findOneOrFail({ where: { id } });
      TIME_ENTRY_STATES.assert(action, current.status);
      const chain = await this.approvals.decide(em, 'time', current, caller, action, {
        administers,
        comment,
        expectedStep,
        summary: async () => timeSummary(current),
      });
      return chain === 'Pending' ? current : this.move(em, current, action, caller);
    });
    return this.view(after);
  }

  async get(caller: AuthUser, id: number): Promise<TimeEntryDto> {
    return this.view((await this.load(caller, id)).entry);
  }

  private async write(entry: TimeEntry): Promise<TimeEntryDto> {
    const problems: ErrorDetail[] = [];
    if (minutesOf(entry.end) <= minutesOf(entry.start))
      problems.push({ field: 'end', message: 'must be after start, on the same day' });
    if (entry.projectId !== null && !(await this.projectRepo.exists({ where: { id: entry.projectId } }))) {
      problems.push({ field: 'project', message: 'does not exist' });
    }
    if (problems.length) throw new ValidationException(problems);
    entry.minutes = minutesOf(entry.end) - minutesOf(entry.start);
    const written = await withEmployeeLock(this.dataSource, entry.employeeId, async (em: EntityManager) => {
      if (await this.repository.overlaps(em, entry.employeeId, entry.date, entry.start, entry.end, entry.id))
        throw new DomainException('CONFLICT', 'The entry overlaps another entry of the same day', [
          { field: 'start', message: 'overlaps another entry' },
        ]);
      const before = entry.id ? await em.findOne(TimeEntry, { where: { id: entry.id } }) : null;
      if (entry.id && !before) throw new NotFoundException('Time entry');
      const saved = await em.getRepository(TimeEntry).save(entry);
      await TIME_ENTRY_DAYS.change(em, before, saved);
      const view = toTimeEntryDto(saved);
      await recordAudit(em, {
        action: before ? 'update' : 'create',
        resource: 'timesheets',
        resourceId: saved.id,
        employee: saved.employeeId,
        before: before && toTimeEntryDto(before),
        after: view,
      });
      return saved;
    });
    return this.view(written);
  }

  /** The entry if its owner or an administrator of the employee asks, and it is still Draft or Rejected. */
  private async editable(caller: AuthUser, id: number): Promise<{ entry: TimeEntry; employee: DecisionSubject }> {
    const found = await this.load(caller, id);
    if (caller.employeeId !== found.entry.employeeId && !(await this.access.administers(caller, employeeRef(found.employee)))) {
      throw new DomainException('FORBIDDEN', 'Only the employee or an Admin changes its time entries');
    }
    TIME_ENTRY_STATES.assert('change', found.entry.status);
    return found;
  }

  /** The entry with its employee, for whoever can see the employee or approves for it; else 404. */
  private async load(caller: AuthUser, id: number): Promise<{ entry: TimeEntry; employee: DecisionSubject }> {
    const entry = await this.timeEntryRepo.findOne({ where: { id } });
    const employee =
      entry &&
      ((await this.access.forDecision(caller, entry.employeeId)) ??
        ((await this.approvals.involves('time', id, caller.employeeId)) ? await this.access.employee(entry.employeeId) : null));
    if (!entry || !employee) throw new NotFoundException('Time entry');
    return { entry, employee };
  }

  /** Submits the entry and starts its approval chain (issue 45), under the employee's lock. */
  private async transition(entry: TimeEntry, action: 'submit', caller: AuthUser | null): Promise<TimeEntryDto> {
    TIME_ENTRY_STATES.assert(action, entry.status);
    // Under the employee lock, as every change of the employee's rollup rows (a department move included).
    const after = await withEmployeeLock(this.dataSource, entry.employeeId, async (em) => {
      const moved = await this.move(em, entry, action, caller);
      await this.approvals.start(em, {
        kind: 'time',
        requestId: entry.id,
        employeeId: entry.employeeId,
        leaveTypeId: null,
        days: null,
        summary: timeSummary(moved),
      });
      return moved;
    });
    return this.view(after);
  }

  /** Moves the entry by `action` (TIME_ENTRY_STATES) with `em`: 409 INVALID_STATE naming its state when the action does not start there. */
  private async move(em: EntityManager, entry: TimeEntry, action: TimeEntryAction, caller: AuthUser | null): Promise<TimeEntry> {
    const to = TIME_ENTRY_STATES.transitions[action].to as TimeEntryStatus;
    const decided = caller ? { decidedBy: caller.id, decidedAt: new Date() } : {};
    const repo = em.getRepository(TimeEntry);
    if (!(await TIME_ENTRY_STATES.move(em, TimeEntry, { id: entry.id, status: entry.status }, action, decided)))
      throw TIME_ENTRY_STATES.invalid(action, (await repo.findOne({ where: { id: entry.id } }))?.status ?? entry.status);
    const after = await repo.findOneOrFail({ where: { id: entry.id } });
    await TIME_ENTRY_DAYS.change(em, { ...after, status: entry.status }, after);
    await recordAudit(em, {
      action,
      resource: 'timesheets',
      event: to === 'Submitted' ? 'timesheet.submitted' : decisionEvent(to),
      resourceId: entry.id,
      employee: entry.employeeId,
      before: toTimeEntryDto(entry),
      after: toTimeEntryDto(after),
    });
    return after;
  }

  /** The entry as the API shows it, with its chain. */
  private async view(entry: TimeEntry): Promise<TimeEntryDto> {
    return { ...toTimeEntryDto(entry), approval: (await this.approvals.views('time', [entry.id])).get(entry.id) ?? null };
  }

  private async withApprovals(page: Page<TimeEntryRowDto>): Promise<Page<TimeEntryDto>> {
    const views = await this.approvals.views(
      'time',
      page.items.map((t) => t.id),
    );
    return page.map((t) => ({ ...t, approval: views.get(t.id) ?? null }));
  }
}
