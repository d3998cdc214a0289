import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { Between, DataSource, EntityManager, In, Repository } from 'typeorm';
import { recordAudit } from '../common/audit/audit-log';
import { recordEvent } from '../common/outbox/outbox';
import { transaction } from '../common/database/transaction';
import { CrudOperations } from '../common/crud/crud';
import { isUniqueViolation } from '../common/errors/db-errors';
import { DomainException, NotFoundException, ValidationException } from '../common/errors/domain.exception';
import { findTablePage, ListSpec, parseListQuery } from '../common/paging/list-request';
import { ListQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { CalendarsService } from './calendars.service';
import { CalendarDeletedDto, CreateHolidayDto, HolidayDto, HolidayImportDto, UpdateHolidayDto } from './dto/calendars.dto';
import { Holiday, WorkCalendar } from './entities/calendar.entities';
import { publicHolidays } from './holiday-dataset';
import './calendars.events';
import type { CalendarChangedPayload } from './calendars.events';

export const HOLIDAY_LIST: ListSpec = {
  idColumn: 'h.id',
  sortFields: { id: 'h.id', name: 'h.name', date: 'h.date' },
  searchColumns: ['h.name'],
};

export const toHolidayDto = (h: Holiday): HolidayDto => ({
  id: h.id,
  date: h.date,
  name: h.name,
  fraction: h.fraction,
  kind: h.kind,
});

/**
 * The holidays of each calendar (issue 65): one per date and calendar (409), whole or half days,
 * public or the company's; a year of public holidays imported from the dataset. The seed-era
 * `/holidays` routes are these on the default calendar. Each write records `calendar.changed` in
 * its transaction.
 */
@Injectable()
export class HolidaysService {
  /** The seed-era /holidays: these operations on the default calendar. */
  readonly defaults: CrudOperations = {
    list: (query) => this.list(null, query),
    get: (id) => this.get(null, id),
    create: (input) => this.create(null, input as unknown as CreateHolidayDto),
    update: (id, input) => this.update(null, id, input),
    remove: (id) => this.remove(null, id),
  };

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @InjectRepository(Holiday) private readonly holidays: Repository<Holiday>,
    private readonly calendars: CalendarsService,
  ) {}

  /** The calendar of a route: `null` is the default one (the seed-era /holidays). */
  async calendarOf(calendarId: number | null): Promise<WorkCalendar> {
    if (calendarId === null) return this.calendars.defaultCalendar();
    const found = (await this.calendars.byIds(null, [calendarId])).get(calendarId);
    if (!found) throw new NotFoundException('Calendar');
    return found;
  }

  async list(calendarId: number | null, query: ListQueryDto): Promise<Page<HolidayDto>> {
    const calendar = await this.calendarOf(calendarId);
    const page = await findTablePage(this.holidays, 'h', parseListQuery(query, HOLIDAY_LIST), { calendar_id: calendar.id });
    return page.map(toHolidayDto);
  }

  async get(calendarId: number | null, id: number): Promise<HolidayDto> {
    return toHolidayDto(await this.find(await this.calendarOf(calendarId), id));
  }

  /** The holidays of these calendars between two days (inclusive), for the working days. */
  between(em: EntityManager | null, calendarIds: number[], from: string, to: string): Promise<Holiday[]> {
    if (!calendarIds.length) return Promise.resolve([]);
    return (em ?? this.ds.manager).find(Holiday, { where: { calendarId: In(calendarIds), date: Between(from, to) } });
  }

  async create(calendarId: number | null, dto: CreateHolidayDto): Promise<HolidayDto> {
    const calendar = await this.calendarOf(calendarId);
    const holiday = this.holidays.create({
      calendarId: calendar.id,
      date: dto.date,
      name: dto.name,
      fraction: dto.fraction ?? '1',
      kind: dto.kind ?? 'public',
    });
    return this.write(holiday, null);
  }

  async update(calendarId: number | null, id: number, dto: UpdateHolidayDto): Promise<HolidayDto> {
    const holiday = await this.find(await this.calendarOf(calendarId), id);
    const before = toHolidayDto(holiday);
    for (const key of ['date', 'name', 'fraction', 'kind'] as const)
      if (dto[key] !== undefined) Object.assign(holiday, { [key]: dto[key] });
    return this.write(holiday, before);
  }

  async remove(calendarId: number | null, id: number): Promise<CalendarDeletedDto> {
    const holiday = await this.find(await this.calendarOf(calendarId), id);
    await transaction(this.ds, async (em) => {
      await em.delete(Holiday, { id });
      await recordAudit(em, { action: 'delete', resource: 'holidays', resourceId: id, before: toHolidayDto(holiday) });
      await this.announce(em, holiday.calendarId, [holiday.date], 'removed');
    });
    return { id };
  }

  /**
   * The dataset's public holidays of `year` for the calendar's country and subdivision: those on a
   * date the calendar has no holiday on are added (not in a dry run), the others reported as existing.
   */
  async import(calendarId: number, year: number, dryRun: boolean): Promise<HolidayImportDto> {
    const calendar = await this.calendarOf(calendarId);
    if (!calendar.country)
      throw ValidationException.field(
        'country',
        `calendar ${calendar.id} has no country yet: set it (PUT /calendars/${calendar.id})`,
      );
    const wanted = await publicHolidays(calendar.country, calendar.subdivision, year);
    const run = async (em: EntityManager): Promise<HolidayImportDto> => {
      const taken = new Set((await this.between(em, [calendar.id], `${year}-01-01`, `${year}-12-31`)).map((h) => h.date));
      const added = wanted.filter((h) => !taken.has(h.date));
      if (!dryRun && added.length) {
        await em.insert(
          Holiday,
          added.map((h) => ({
            calendarId: calendar.id,
            date: h.date,
            name: h.name,
            fraction: h.fraction,
            kind: 'public' as const,
          })),
        );
        await recordAudit(em, {
          action: 'import',
          resource: 'holidays',
          resourceId: calendar.id,
          after: { calendar: calendar.id, year, added: added.length },
        });
        await this.announce(
          em,
          calendar.id,
          added.map((h) => h.date),
          'added',
        );
      }
      return { year, dry_run: dryRun, added, existing: wanted.filter((h) => taken.has(h.date)) };
    };
    return dryRun ? run(this.ds.manager) : transaction(this.ds, run);
  }

  private async find(calendar: WorkCalendar, id: number): Promise<Holiday> {
    const holiday = await this.holidays.findOne({ where: { id, calendarId: calendar.id } });
    if (!holiday) throw new NotFoundException('Holiday');
    return holiday;
  }

  private async write(holiday: Holiday, before: HolidayDto | null): Promise<HolidayDto> {
    try {
      const saved = await transaction(this.ds, async (em) => {
        const row = await em.save(Holiday, holiday);
        await recordAudit(em, {
          action: before ? 'update' : 'create',
          resource: 'holidays',
          resourceId: row.id,
          before: before ?? undefined,
          after: toHolidayDto(row),
        });
        const moved = before && before.date !== row.date;
        const changed = !before || moved || before.fraction !== row.fraction;
        if (changed)
          await this.announce(em, row.calendarId, moved ? [before.date, row.date] : [row.date], before ? 'changed' : 'added');
        return row;
      });
      return toHolidayDto(saved);
    } catch (err) {
      if (isUniqueViolation(err))
        throw new DomainException('DUPLICATE', `Calendar ${holiday.calendarId} has a holiday on ${holiday.date} already`, [
          { field: 'date', message: 'one holiday per date and calendar' },
        ]);
      throw err;
    }
  }

  /** `calendar.changed` for each date whose working time a write changed (a moved holiday: both), in its transaction. */
  private async announce(
    em: EntityManager,
    calendar: number,
    dates: string[],
    change: CalendarChangedPayload['change'],
  ): Promise<void> {
    for (const date of dates) await recordEvent(em, 'calendar.changed', { calendar, date, change });
  }
}
