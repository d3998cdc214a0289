/**
 * `--calendars N` of the benchmarks that compare a build with one from before work calendars
 * (issue 65, docs/api/calendars.md "Performance"): N − 1 calendars besides the default (Bavaria,
 * Berlin, Lyon, Manchester), each with the public holidays of `years` from the dataset and a half
 * day, made over HTTP; then the employees `first` … `first + count − 1` spread over the N by their
 * employment history (every segment's calendar and the record's, written in bulk, employee i on
 * calendar i mod N). Only HTTP and SQL, so that the same file runs against the older build, where
 * the routes answer 404 and nothing is done.
 */
import { DataSource } from 'typeorm';

type Call = (
  method: 'GET' | 'POST',
  url: string,
  payload?: object,
) => Promise<{ statusCode: number; json<T>(): T; body: string }>;

const PLACES = [
  { name: 'Bavaria', country: 'DE', subdivision: 'DE-BY' },
  { name: 'Berlin', country: 'DE', subdivision: 'DE-BE' },
  { name: 'Lyon', country: 'FR', subdivision: null },
  { name: 'Manchester', country: 'GB', subdivision: 'GB-ENG' },
];

/** What was done, for the benchmark's first line. */
export async function spreadOverCalendars(
  call: Call,
  ds: DataSource,
  calendars: number,
  years: readonly number[],
  first: number,
  count: number,
): Promise<string> {
  if (calendars <= 1) return 'one calendar (the default)';
  const list = await call('GET', '/calendars');
  if (list.statusCode === 404) return 'no calendars (a build before them)';
  const ids = [list.json<{ data: Array<{ id: number; is_default: boolean }> }>().data.find((c) => c.is_default)!.id];
  let holidays = 0;
  for (const place of PLACES.slice(0, calendars - 1)) {
    const made = await call('POST', '/calendars', place);
    if (made.statusCode >= 300) throw new Error(made.body);
    const id = made.json<{ data: { id: number } }>().data.id;
    ids.push(id);
    for (const year of years) {
      const imported = await call('POST', `/calendars/${id}/holidays/import?year=${year}&dry_run=false`);
      if (imported.statusCode !== 200) throw new Error(imported.body);
      holidays += imported.json<{ data: { added: unknown[] } }>().data.added.length;
      const half = await call('POST', `/calendars/${id}/holidays`, { date: `${year}-12-31`, name: 'Half day', fraction: '0.5' });
      if (half.statusCode < 300) holidays++;
    }
  }
  for (let k = 1; k < ids.length; k++)
    for (const table of ['employment_segments', 'employees'])
      await ds.query(
        `UPDATE ${table} SET calendar_id = ? WHERE ${table === 'employees' ? 'id' : 'employee_id'} BETWEEN ? AND ? AND ${table === 'employees' ? 'id' : 'employee_id'} % ? = ?`,
        [ids[k], first, first + count - 1, ids.length, k],
      );
  // The UPDATEs above grow 80 % of the rows in place (a NULL calendar_id gets a value), which splits
  // MariaDB's pages: measured 2026-12-03, the liability's small refreshes ran 1.6× slower on the split
  // tables than on the same rows rebuilt. Companies assign calendars as rows are written (joiners,
  // dated changes), not by one UPDATE of every row, so the tables are rebuilt as a load leaves them.
  if (ds.options.type !== 'better-sqlite3') await ds.query('OPTIMIZE TABLE employees, employment_segments');
  return `${ids.length} calendars (${holidays} holidays over ${years.length} years), the employees spread over them`;
}
