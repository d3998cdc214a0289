import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { leaveDaysOf } from '../calendars/working-days';
import { WorkingDaysService } from '../calendars/working-days.service';
import { LeaveDay, LeaveRequest } from './entities/leave.entities';
import { dateOnly } from './engine/calendar';
import { timeSlices } from '../common/async/time-slices';
import { lockEmployeeRows } from '../employees/core/employee-lock';
import { LEAVE_DAY_SUMS } from './leave-day-sums';
import { leaveDayEntities } from './leave-days';
import { LeaveRepository } from './leave.repository';
import { LeaveLedgerRepository, NewLedgerEntry } from './ledger/leave-ledger.repository';

/** Requests recomputed in one go: their employees locked, their days read and written together (SQLite holds the event loop for one). */
const BATCH = 100;

/** What a recompute did. */
export interface Recomputed {
  /** Requests whose days changed. */
  requests: number;
  /** Ledger entries written (approved requests' days taken or given back). */
  entries: number;
}

/**
 * A change of working days reaching back (issue 65 item 5): a holiday added, changed or removed, or
 * an employee's calendar changed for past or future days. Each Pending or Approved request it may
 * touch is counted again by the calendars' one rule (LeaveCalendarService's), and only one whose
 * days differ is written: its leave_days rows and its total, and for an approved request a ledger
 * entry per day whose value changed (taken for more, reversal for less) whose note says why. A
 * second run over the same change finds nothing to do, so nothing is counted twice.
 */
@Injectable()
export class LeaveRecomputeService {
  constructor(
    private readonly repository: LeaveRepository,
    private readonly ledger: LeaveLedgerRepository,
    private readonly workingDays: WorkingDaysService,
  ) {}

  /**
   * Recomputes the Pending and Approved requests overlapping [from, to] (`to` null: open-ended), of
   * one employee or all (with `calendar` and one day: those on that calendar that day); `why` is
   * the ledger entries' note, `key` makes their entry keys unique.
   */
  async overlapping(
    em: EntityManager,
    range: { from: string; to: string | null; employee?: number; calendar?: number },
    why: string,
    key: string,
  ): Promise<Recomputed> {
    const slices = timeSlices();
    let requests = await this.repository.openOverlapping(em, range.from, range.to, range.employee);
    // A holiday of one calendar: only the requests of employees on that calendar that day.
    if (range.calendar !== undefined && range.to === range.from && requests.length) {
      const on = await this.workingDays.ofEmployees([...new Set(requests.map((r) => r.employeeId))], range.from, range.from, em);
      requests = requests.filter((r) => on.get(r.employeeId)?.[0]?.calendar === range.calendar);
      await slices.pause();
    }
    const done: Recomputed = { requests: 0, entries: 0 };
    for (let i = 0; i < requests.length; i += BATCH) {
      if (slices.due()) await slices.pause();
      const part = await this.batch(em, requests.slice(i, i + BATCH), why, key);
      done.requests += part.requests;
      done.entries += part.entries;
    }
    return done;
  }

  private async batch(em: EntityManager, requests: LeaveRequest[], why: string, key: string): Promise<Recomputed> {
    const employees = [...new Set(requests.map((r) => r.employeeId))].sort((a, b) => a - b);
    // The requests' own check-then-write (create, decide, cancel) holds the employee's row: so do we.
    await lockEmployeeRows(em, employees);
    // Read again under the lock: a decision or cancellation may have come first.
    const current = await em.getRepository(LeaveRequest).find({ where: { id: In(requests.map((r) => r.id)) } });
    const open = current.filter((r) => r.status === 'Pending' || r.status === 'Approved');
    if (!open.length) return { requests: 0, entries: 0 };
    const from = open.reduce((m, r) => (dateOnly(r.dateStart) < m ? dateOnly(r.dateStart) : m), dateOnly(open[0].dateStart));
    const to = open.reduce((m, r) => (dateOnly(r.dateEnd) > m ? dateOnly(r.dateEnd) : m), dateOnly(open[0].dateEnd));
    const days = await this.workingDays.ofEmployees(employees, from, to, em);
    const stored = new Map<number, Map<string, number>>();
    for (const d of await em.getRepository(LeaveDay).find({ where: { requestId: In(open.map((r) => r.id)) } })) {
      const of = stored.get(d.requestId) ?? new Map<string, number>();
      of.set(dateOnly(d.date), Number(d.days));
      stored.set(d.requestId, of);
    }
    const changed: Array<{ request: LeaveRequest; dates: Array<{ date: string; days: number }> }> = [];
    const entries: NewLedgerEntry[] = [];
    for (const request of open) {
      const [start, end] = [dateOnly(request.dateStart), dateOnly(request.dateEnd)];
      const dates = leaveDaysOf(days.get(request.employeeId) ?? [], start, end, request.halfDay);
      const before = stored.get(request.id) ?? new Map<string, number>();
      const after = new Map(dates.map((d) => [d.date, d.days]));
      const moved = [...new Set([...before.keys(), ...after.keys()])]
        .sort()
        .map((date) => ({ date, delta: (after.get(date) ?? 0) - (before.get(date) ?? 0) }))
        .filter((x) => x.delta !== 0);
      if (!moved.length) continue;
      changed.push({ request, dates });
      if (request.status !== 'Approved') continue;
      for (const { date, delta } of moved)
        entries.push({
          employeeId: request.employeeId,
          leaveTypeId: request.leaveTypeId,
          date,
          kind: delta > 0 ? 'taken' : 'reversal',
          days: -delta,
          source: 'request',
          sourceId: request.id,
          createdBy: null,
          note: why,
          entryKey: `${key}:${request.id}:${date}`,
        });
    }
    if (!changed.length) return { requests: 0, entries: 0 };
    const ids = changed.map((c) => c.request.id);
    await LEAVE_DAY_SUMS.add(em, -1, `s.request_id IN (${ids.map(() => '?').join(', ')})`, ids);
    await em.getRepository(LeaveDay).delete({ requestId: In(ids) });
    const rows = changed.flatMap(({ request, dates }) => leaveDayEntities(request, dates));
    for (let i = 0; i < rows.length; i += BATCH) await em.getRepository(LeaveDay).insert(rows.slice(i, i + BATCH));
    await LEAVE_DAY_SUMS.add(em, 1, `s.request_id IN (${ids.map(() => '?').join(', ')})`, ids);
    for (const { request, dates } of changed)
      await em.getRepository(LeaveRequest).update({ id: request.id }, { days: dates.reduce((s, d) => s + d.days, 0) });
    if (entries.length) await this.ledger.append(em, entries);
    return { requests: changed.length, entries: entries.length };
  }
}
