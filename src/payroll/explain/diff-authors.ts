import { AuditService } from '../../audit/audit.service';
import { PAYROLL_COLUMNS } from '../config/payroll-config.service';
import { SALARIES } from '../config/payroll-employees.service';
import { Payroll } from '../entities/payroll-run.entities';
import { PAYROLL_CELL_EDITS } from '../runs/payroll-runs.service';
import { DiffRow } from './payroll-diff';

type Entry = Awaited<ReturnType<AuditService['entriesOf']>>[number];
/** Who made a change a cause names: the newest entry of the record naming `key` among its changes (any entry with a null key). */
export interface DiffAuthors {
  of(resource: string, resourceId: number, key: string | null): { changed_by: number | null; changed_at: string | null };
}

/**
 * Who made the changes the causes name: salary and column changes between the two runs'
 * processing, and the cells' edits of either run (newest first; null when none is recorded). Made
 * once per pair of runs and asked per chunk of the diff: the column changes and the edits are the
 * pair's and are read once (the edits of both runs, whatever the chunk); the salary changes are the
 * chunk's employees'.
 */
export function diffAuthors(audit: AuditService, older: Payroll, newer: Payroll): (diff: DiffRow[]) => Promise<DiffAuthors> {
  const times = [older.processedAt, newer.processedAt].map((t) => (t ?? new Date()).getTime());
  // processed_at has whole seconds on MariaDB: the second after the later one is in.
  const [from, to] = [new Date(Math.min(...times)), new Date(Math.max(...times) + 1000)];
  const read = new Map<string, Promise<Entry[]>>();
  const once = (key: string, load: () => Promise<Entry[]>) => {
    let entries = read.get(key);
    if (!entries) read.set(key, (entries = load()));
    return entries;
  };
  const byRecord = (list: Entry[], key: (e: Entry) => string) => {
    const map = new Map<string, Entry[]>();
    for (const e of list) {
      const entries = map.get(key(e));
      if (entries)
        entries.push(e); // newest first, as listed
      else map.set(key(e), [e]);
    }
    return map;
  };
  return async (diff) => {
    const salaryEmployees = new Set<string>();
    const columns = new Set<string>();
    let edits = false;
    for (const r of diff)
      for (const c of r.causes) {
        if (c.kind === 'salary') salaryEmployees.add(String(r.employee));
        if (c.kind === 'column') columns.add(String(c.column));
        if (c.kind === 'edit') edits = true;
      }
    const columnList = [...columns].sort();
    const found = new Map<string, Map<string, Entry[]>>([
      [
        SALARIES,
        byRecord(
          salaryEmployees.size ? await audit.entriesOf(SALARIES, [...salaryEmployees], { from, to }) : [],
          (e) => e.resourceId,
        ),
      ],
      [
        PAYROLL_COLUMNS,
        byRecord(
          columnList.length
            ? await once(`columns ${columnList.join(',')}`, () => audit.entriesOf(PAYROLL_COLUMNS, columnList, { from, to }))
            : [],
          (e) => e.resourceId,
        ),
      ],
      // Edits are the runs' own: one list for both, keyed by nothing.
      [
        PAYROLL_CELL_EDITS,
        byRecord(
          edits ? await once('edits', () => audit.entriesOf(PAYROLL_CELL_EDITS, [String(newer.id), String(older.id)])) : [],
          () => '0',
        ),
      ],
    ]);
    return {
      of(resource, resourceId, key) {
        const e = found
          .get(resource)
          ?.get(String(resourceId))
          ?.find((x) => key === null || Object.hasOwn(x.changes, key));
        return { changed_by: e?.actorUserId ?? null, changed_at: e ? e.at.toISOString() : null };
      },
    };
  };
}
