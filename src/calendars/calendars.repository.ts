import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { RecordSql } from '../common/database/record-sql';
import { Holiday, WorkCalendar } from './entities/calendar.entities';

/** A calendar's row joined to one of its holidays (all null when it has none in the range). */
export interface CalendarHolidayRow {
  id: number;
  /** The work week as stored: ISO weekdays, "1,2,3,4,5". */
  week: string;
  date: string | null;
  name: string | null;
  fraction: string | null;
}

/** The calendars' SQL that the working days read on every count (issue 65): one round trip. */
@Injectable()
export class CalendarsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** These calendars (unknown ids left out), each joined to its holidays from `from` to `to`. */
  @RecordSql(null, [1, 2], '2026-01-01', '2026-12-31')
  async withHolidays(em: EntityManager | null, ids: readonly number[], from: string, to: string): Promise<CalendarHolidayRow[]> {
    const rows = await (em ?? this.ds.manager)
      .createQueryBuilder()
      .from(WorkCalendar, 'c')
      .leftJoin(Holiday, 'h', 'h.calendar_id = c.id AND h.date BETWEEN :from AND :to', { from, to })
      .select('c.id', 'id')
      .addSelect('c.work_week', 'week')
      .addSelect('h.date', 'date')
      .addSelect('h.name', 'name')
      .addSelect('h.fraction', 'fraction')
      .where('c.id IN (:...ids)', { ids: [...ids] })
      .getRawMany<{ id: number | string; week: string; date: string | null; name: string | null; fraction: string | null }>();
    return rows.map((r) => ({ ...r, id: Number(r.id), date: r.date === null ? null : String(r.date).slice(0, 10) }));
  }
}
