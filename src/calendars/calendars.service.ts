import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Not, Repository } from 'typeorm';
import { recordAudit } from '../common/audit/audit-log';
import { transaction } from '../common/database/transaction';
import { isUniqueViolation } from '../common/errors/db-errors';
import { idListsByName } from '../common/import/row-by-row';
import { DomainException, NotFoundException, ValidationException } from '../common/errors/domain.exception';
import { findTablePage, ListSpec, parseListQuery } from '../common/paging/list-request';
import { ListQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { SettingsService } from '../settings/settings.service';
import { CalendarDeletedDto, CalendarDto, CreateCalendarDto, UpdateCalendarDto } from './dto/calendars.dto';
import { WorkCalendar } from './entities/calendar.entities';
import { placeProblem } from './holiday-dataset';
import { isoWorkWeek, WORK_WEEK, workWeekSetting } from './calendars.settings';

export const CALENDAR_LIST: ListSpec = {
  idColumn: 'c.id',
  sortFields: { id: 'c.id', name: 'c.name' },
  searchColumns: ['c.name'],
};

/** How long a process keeps the default calendar's id (another process's switch is seen within it). */
const DEFAULT_ID_MS = 2000;

export const toCalendarDto = (c: WorkCalendar): CalendarDto => ({
  id: c.id,
  name: c.name,
  country: c.country,
  subdivision: c.subdivision,
  work_week: c.workWeek,
  is_default: c.isDefault,
});

/** Who uses a calendar, for the refusal of its deletion (the employment history registers it at start). */
export type CalendarUsers = (em: EntityManager, calendarId: number) => Promise<number>;

/**
 * Work calendars (issue 65, docs/api/calendars.md): CRUD, exactly one default, and the Work Week
 * setting, which is the default calendar's work week read and written through the settings routes.
 */
@Injectable()
export class CalendarsService implements OnModuleInit {
  private users: CalendarUsers = async () => 0;
  private defaultCache: { id: number; until: number } | null = null;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @InjectRepository(WorkCalendar) private readonly calendars: Repository<WorkCalendar>,
    private readonly settings: SettingsService,
  ) {}

  onModuleInit(): void {
    this.settings.keepIn(WORK_WEEK, {
      read: async (em) => workWeekSetting((await this.defaultCalendar(em)).workWeek),
      write: async (em, value) => {
        const calendar = await this.defaultCalendar(em);
        await em.update(WorkCalendar, { id: calendar.id }, { workWeek: isoWorkWeek(value) });
      },
    });
  }

  /** The employment history tells how many employees a calendar is (or was) the calendar of. */
  countUsersWith(users: CalendarUsers): void {
    this.users = users;
  }

  async list(query: ListQueryDto): Promise<Page<CalendarDto>> {
    return (await findTablePage(this.calendars, 'c', parseListQuery(query, CALENDAR_LIST))).map(toCalendarDto);
  }

  async get(id: number): Promise<CalendarDto> {
    return toCalendarDto(await this.find(id));
  }

  /** The calendar of every employee none was set for. */
  async defaultCalendar(em?: EntityManager): Promise<WorkCalendar> {
    const found = await (em ?? this.ds.manager).findOne(WorkCalendar, { where: { isDefault: true } });
    if (!found) throw new Error('No default calendar (migration 1763800000048 makes one)');
    return found;
  }

  /** The calendars of these ids (unknown ones left out). */
  async byIds(em: EntityManager | null, ids: number[]): Promise<Map<number, WorkCalendar>> {
    if (!ids.length) return new Map();
    const rows = await (em ?? this.ds.manager).getRepository(WorkCalendar).findBy(ids.map((id) => ({ id })));
    return new Map(rows.map((c) => [c.id, c]));
  }

  /** Lower-case name → ids (imports name a calendar by name or id). */
  async idsByName(): Promise<Map<string, number[]>> {
    return idListsByName(await this.calendars.find({ select: { id: true, name: true } }));
  }

  /** The default calendar's id, remembered for DEFAULT_ID_MS (employees without a calendar show it). */
  async defaultId(): Promise<number> {
    if (this.defaultCache && this.defaultCache.until > Date.now()) return this.defaultCache.id;
    const id = (await this.defaultCalendar()).id;
    this.defaultCache = { id, until: Date.now() + DEFAULT_ID_MS };
    return id;
  }

  async create(dto: CreateCalendarDto): Promise<CalendarDto> {
    const calendar = this.calendars.create({
      name: dto.name,
      country: dto.country,
      subdivision: dto.subdivision ?? null,
      workWeek: dto.work_week ?? [1, 2, 3, 4, 5],
      isDefault: false,
    });
    await this.checkPlace(calendar);
    return this.save(calendar, null, dto.is_default === true);
  }

  async update(id: number, dto: UpdateCalendarDto): Promise<CalendarDto> {
    const calendar = await this.find(id);
    const before = toCalendarDto(calendar);
    if (dto.is_default === false && calendar.isDefault)
      throw new DomainException('CONFLICT', `Calendar ${id} is the default: make another calendar the default instead`, [
        { field: 'is_default', message: 'exactly one calendar is the default' },
      ]);
    if (dto.country === null && calendar.country !== null) throw ValidationException.field('country', 'must not be null');
    if (dto.name !== undefined) calendar.name = dto.name;
    if (dto.country !== undefined) calendar.country = dto.country;
    if (dto.subdivision !== undefined) calendar.subdivision = dto.subdivision;
    if (dto.work_week !== undefined) calendar.workWeek = dto.work_week;
    if (dto.country !== undefined || dto.subdivision !== undefined) await this.checkPlace(calendar);
    return this.save(calendar, before, dto.is_default === true && !calendar.isDefault);
  }

  async remove(id: number): Promise<CalendarDeletedDto> {
    const calendar = await this.find(id);
    if (calendar.isDefault)
      throw new DomainException(
        'CONFLICT',
        `Calendar ${id} is the default and cannot be deleted; make another the default first`,
      );
    await transaction(this.ds, async (em) => {
      const users = await this.users(em, id);
      if (users)
        throw new DomainException('IN_USE', `Calendar ${id} is the calendar of ${users} employee(s), now or in their history`, [
          { field: 'id', message: `used by ${users} employee(s)` },
        ]);
      await em.delete(WorkCalendar, { id });
      await recordAudit(em, { action: 'delete', resource: 'calendars', resourceId: id, before: toCalendarDto(calendar) });
    });
    return { id };
  }

  private async find(id: number): Promise<WorkCalendar> {
    const calendar = await this.calendars.findOne({ where: { id } });
    if (!calendar) throw new NotFoundException('Calendar');
    return calendar;
  }

  private async checkPlace(calendar: WorkCalendar): Promise<void> {
    if (calendar.country === null) {
      if (calendar.subdivision !== null) throw ValidationException.field('country', 'is required with a subdivision');
      return;
    }
    const problem = await placeProblem(calendar.country, calendar.subdivision);
    if (problem) throw ValidationException.field(...problem);
  }

  /** Saves the calendar (and makes it the default when `makeDefault`), audited; 409 on a name taken. */
  private async save(calendar: WorkCalendar, before: CalendarDto | null, makeDefault: boolean): Promise<CalendarDto> {
    try {
      const saved = await transaction(this.ds, async (em) => {
        if (makeDefault) {
          this.defaultCache = null;
          await em.update(
            WorkCalendar,
            { isDefault: true, ...(calendar.id ? { id: Not(calendar.id) } : {}) },
            { isDefault: false },
          );
          calendar.isDefault = true;
        }
        const row = await em.save(WorkCalendar, calendar);
        await recordAudit(em, {
          action: before ? 'update' : 'create',
          resource: 'calendars',
          resourceId: row.id,
          before: before ?? undefined,
          after: toCalendarDto(row),
        });
        return row;
      });
      return toCalendarDto(saved);
    } catch (err) {
      if (isUniqueViolation(err)) throw new DomainException('DUPLICATE', `A calendar named "${calendar.name}" exists already`);
      throw err;
    }
  }
}
