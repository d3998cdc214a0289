import { Inject, Injectable } from '@nestjs/common';
import { CompanyClock } from '../common/time/company-clock';
import { AuthUser } from '../common/auth/auth-user';
import { RecentResults } from '../common/cache/recent-results';
import { addDays } from '../common/time/days';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { EmployeeAccessService } from '../employees/core/employee-access.service';
import { EmployeesRepository } from '../employees/core/employees.repository';
import { HeadcountDto, InsightPeriod, TurnoverDto } from './insights.dto';
import { InsightsRepository } from './insights.repository';
import { periodRange, scopeKey } from './insights.service';

/** Months shown for the `all` period: the ten years up to today. */
const ALL_MONTHS = 120;

/** The last day of each month from `from`'s to `to`'s, the last one `to` itself. */
export function monthEnds(from: string, to: string): string[] {
  const out: string[] = [];
  let month = from.slice(0, 7);
  for (;;) {
    const end = addDays(`${addDays(`${month}-01`, 32).slice(0, 7)}-01`, -1);
    if (end >= to) return [...out, to];
    out.push(end);
    month = addDays(end, 1).slice(0, 7);
  }
}

/**
 * Headcount and turnover (issue 43, docs/api/decisions.md §19): who was employed at each month's end, counted
 * under the department of that day from the employment history, and the leavers of a period
 * against the average of those headcounts. Scope and cache as the other insights.
 */
@Injectable()
export class WorkforceInsightsService {
  private readonly cache: RecentResults<unknown>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly access: EmployeeAccessService,
    private readonly employees: EmployeesRepository,
    private readonly repository: InsightsRepository,
    private readonly clock: CompanyClock,
  ) {
    this.cache = new RecentResults<unknown>(config.insightsCacheMs, 2000);
  }

  /** GET /insights/headcount/{period}: per month of the period and department, the headcount at the month's end. */
  async headcount(caller: AuthUser, period: InsightPeriod): Promise<HeadcountDto[]> {
    const { days, key } = await this.days(caller, period);
    const scope = await this.access.scopeOf(caller);
    return this.cached(`headcount|${key}`, async () => {
      const counts = await Promise.all(days.map((day) => this.employees.headcountOn(scope, day)));
      const names = await this.names(counts.flat().map((c) => c.department));
      return days.flatMap((day, i) =>
        counts[i]
          .map((c) => ({
            month: day.slice(0, 7),
            day,
            department: c.department,
            department_name: c.department === null ? null : (names.get(c.department) ?? null),
            headcount: c.count,
          }))
          .sort((a, b) => (a.department ?? 0) - (b.department ?? 0)),
      );
    });
  }

  /** GET /insights/turnover/{period}: per department, the period's leavers ÷ the average month-end headcount. */
  async turnover(caller: AuthUser, period: InsightPeriod): Promise<TurnoverDto[]> {
    const { days, key, from, to } = await this.days(caller, period);
    const scope = await this.access.scopeOf(caller);
    return this.cached(`turnover|${key}`, async () => {
      const [counts, leavers] = await Promise.all([
        Promise.all(days.map((day) => this.employees.headcountOn(scope, day))),
        this.employees.leaversBetween(scope, from, to),
      ]);
      const sums = new Map<number | null, number>();
      for (const c of counts.flat()) sums.set(c.department, (sums.get(c.department) ?? 0) + c.count);
      const left = new Map(leavers.map((l) => [l.department, l.count]));
      const departments = [...new Set([...sums.keys(), ...left.keys()])];
      const names = await this.names(departments);
      return departments
        .map((department) => {
          const average = Math.round(((sums.get(department) ?? 0) / days.length) * 100) / 100;
          const leaversOf = left.get(department) ?? 0;
          return {
            department,
            department_name: department === null ? null : (names.get(department) ?? null),
            leavers: leaversOf,
            average_headcount: average,
            turnover: average > 0 ? Math.round((leaversOf / average) * 10_000) / 10_000 : null,
          };
        })
        .sort((a, b) => b.leavers - a.leavers || (a.department ?? 0) - (b.department ?? 0));
    });
  }

  /** The period's month ends (the ten years up to today for `all`), and the cache key of the period, day and caller's scope. */
  private async days(caller: AuthUser, period: InsightPeriod) {
    const range = periodRange(period, await this.clock.today());
    const [y, m] = range.to.split('-').map(Number);
    const first = y * 12 + m - 1 - (ALL_MONTHS - 1);
    const from = range.from ?? `${Math.floor(first / 12)}-${String((first % 12) + 1).padStart(2, '0')}-01`;
    const key = `${period}|${range.to}|${scopeKey(await this.access.scopeOf(caller))}`;
    return { days: monthEnds(from, range.to), key, from: range.from, to: range.to };
  }

  private cached<T>(key: string, compute: () => Promise<T>): Promise<T> {
    return this.config.insightsCacheMs ? (this.cache.get(key, compute) as Promise<T>) : compute();
  }

  private async names(departments: Array<number | null>): Promise<Map<number, string>> {
    const ids = [...new Set(departments.filter((d): d is number => d !== null))];
    return new Map((await this.repository.departmentNames(ids)).map((d) => [d.id, d.name]));
  }
}
