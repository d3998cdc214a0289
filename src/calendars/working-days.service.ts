import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ValidationException } from '../common/errors/domain.exception';
import { addDays } from '../common/time/days';
import { CalendarsService } from './calendars.service';
import { CalendarsRepository } from './calendars.repository';
import { parseWorkWeek } from './entities/calendar.entities';
import { CalendarRules, CalendarSpan, calendarDays, datesOf, employeeDays, WorkingDay } from './working-days';

/** The longest range one answer covers (GET /employees/{id}/working-days; a leave request). */
export const MAX_WORKING_DAYS_SPAN = 366;

/** `count` employees on `calendar` (null: the default) every day from `from` to `to` (inclusive). */
export interface CalendarStretch {
  calendar: number | null;
  from: string;
  to: string;
  count: number;
}

/** A day's working time summed over many employees: `weekday` ISO (1 = Monday … 7 = Sunday). */
export interface SummedDay {
  date: string;
  weekday: number;
  days: number;
}

/** Reads employees' calendar spans (the employment history's `calendar`), registered at start. */
export type CalendarSpansReader = (
  em: EntityManager | null,
  employeeIds: readonly number[],
  from: string,
  to: string,
) => Promise<Map<number, CalendarSpan[]>>;

/**
 * Working days (issue 65 item 4): every count of working days in the service comes from here, for
 * a calendar or for employees, each day by the calendar the employee had that day. Two queries
 * whatever the number of employees (their spans, then their calendars joined to their holidays in the range), one
 * array of days per calendar shared by the employees on it.
 */
@Injectable()
export class WorkingDaysService {
  private spans: CalendarSpansReader = async () => new Map();

  constructor(
    private readonly repository: CalendarsRepository,
    private readonly calendars: CalendarsService,
  ) {}

  /** The employment history tells which calendar each employee had when (at start). */
  readSpansWith(reader: CalendarSpansReader): void {
    this.spans = reader;
  }

  /** Each employee's days from `from` to `to`, by the calendar it had each day (the default where none). */
  async ofEmployees(
    employeeIds: readonly number[],
    from: string,
    to: string,
    em: EntityManager | null = null,
  ): Promise<Map<number, readonly WorkingDay[]>> {
    const spans = employeeIds.length ? await this.spans(em, employeeIds, from, to) : new Map<number, CalendarSpan[]>();
    const fallback = await this.calendars.defaultId();
    const ids = new Set([fallback, ...[...spans.values()].flatMap((s) => s.map((x) => x.calendar))]);
    const dates = datesOf(from, to);
    const byCalendar = new Map(
      (await this.rules(em, [...ids], from, to)).map((r) => [r.id, calendarDays(r, from, to, dates)] as const),
    );
    return new Map(employeeIds.map((id) => [id, employeeDays(spans.get(id) ?? [], fallback, byCalendar)]));
  }

  /**
   * The working time of many employees summed per day (the insights' attendance expectations):
   * each stretch's employees counted by its calendar's days (calendarDays, the one rule) from its
   * first to its last day. One pass over the days per calendar, whatever the number of stretches;
   * the days from the earliest stretch's first to the latest's last.
   */
  async summedByDay(stretches: readonly CalendarStretch[], em: EntityManager | null = null): Promise<SummedDay[]> {
    if (!stretches.length) return [];
    const from = stretches.reduce((m, s) => (s.from < m ? s.from : m), stretches[0].from);
    const to = stretches.reduce((m, s) => (s.to > m ? s.to : m), stretches[0].to);
    const fallback = await this.calendars.defaultId();
    const calendarOf = (s: CalendarStretch) => s.calendar ?? fallback;
    const dates = datesOf(from, to);
    const indexOf = (day: string) => Math.round((Date.parse(day) - Date.parse(from)) / 86_400_000);
    const sums = new Float64Array(dates.length);
    for (const rules of await this.rules(em, [...new Set(stretches.map(calendarOf))], from, to)) {
      const starting = new Float64Array(dates.length + 1);
      for (const s of stretches)
        if (calendarOf(s) === rules.id) {
          starting[indexOf(s.from)] += s.count;
          starting[indexOf(s.to) + 1] -= s.count;
        }
      const days = calendarDays(rules, from, to, dates);
      for (let i = 0, employed = 0; i < dates.length; i++) {
        employed += starting[i];
        sums[i] += employed * days[i].fraction;
      }
    }
    return dates.map((d, i) => ({ date: d.date, weekday: d.weekday, days: sums[i] }));
  }

  /**
   * The day `n` working days after `day` (`day` itself not counted) by the employee's calendars: a
   * day with any working time counts as one. A year without a working day (a calendar of holidays
   * only) gives up and counts calendar days.
   */
  async workingDaysAfter(employeeId: number, day: string, n: number, em: EntityManager | null = null): Promise<string> {
    let from = addDays(day, 1);
    let left = n;
    for (let window = 0; window < 4; window++) {
      const to = addDays(from, Math.max(31, 2 * left + 14) - 1);
      for (const d of (await this.ofEmployees([employeeId], from, to, em)).get(employeeId) ?? [])
        if (d.fraction > 0 && --left === 0) return d.date;
      from = addDays(to, 1);
    }
    return addDays(day, n);
  }

  /** The rules of these calendars (unknown ids left out) with their holidays from `from` to `to`. */
  private async rules(em: EntityManager | null, ids: readonly number[], from: string, to: string): Promise<CalendarRules[]> {
    const out = new Map<
      number,
      { id: number; workWeek: Set<number>; holidays: Map<string, { name: string; fraction: number }> }
    >();
    for (const r of await this.repository.withHolidays(em, ids, from, to)) {
      let rules = out.get(r.id);
      if (!rules) out.set(r.id, (rules = { id: r.id, workWeek: new Set(parseWorkWeek(r.week)), holidays: new Map() }));
      if (r.date !== null) rules.holidays.set(r.date, { name: r.name ?? '', fraction: Number(r.fraction) });
    }
    return [...out.values()];
  }
}

/** 400 for a reversed range or one longer than MAX_WORKING_DAYS_SPAN days (what a caller of the route or a leave request sends). */
export function checkRange(from: string, to: string): void {
  if (to < from) throw ValidationException.field('to', 'must not be before from');
  const days = (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;
  if (days > MAX_WORKING_DAYS_SPAN) throw ValidationException.field('to', `a range covers at most ${MAX_WORKING_DAYS_SPAN} days`);
}
