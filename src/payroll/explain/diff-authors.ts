import { AuditService } from '../../audit/audit.service';
import { PAYROLL_COLUMNS } from '../config/payroll-config.service';
import { SALARIES } from '../config/payroll-employees.service';
import { Payroll } from '../entities/payroll-run.entities';
import { PAYROLL_CELL_EDITS } from '../runs/payroll-runs.service';
import { DiffRow } from './payroll-diff';

/**
 * Who made the changes the causes name: salary and column changes between the two runs'
 * processing, and the cells' edits of either run (newest first; null when none is recorded).
 */
export async function diffAuthors(audit: AuditService, older: Payroll, newer: Payroll, diff: DiffRow[]) {
  const times = [older.processedAt, newer.processedAt].map((t) => (t ?? new Date()).getTime());
  // processed_at has whole seconds on MariaDB: the second after the later one is in.
  const [from, to] = [new Date(Math.min(...times)), new Date(Math.max(...times) + 1000)];
  const salaryEmployees = new Set<string>();
  const columns = new Set<string>();
  let edits = false;
  for (const r of diff)
    for (const c of r.causes) {
      if (c.kind === 'salary') salaryEmployees.add(String(r.employee));
      if (c.kind === 'column') columns.add(String(c.column));
      if (c.kind === 'edit') edits = true;
    }
  type Entry = Awaited<ReturnType<AuditService['entriesOf']>>[number];
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
      byRecord(columns.size ? await audit.entriesOf(PAYROLL_COLUMNS, [...columns], { from, to }) : [], (e) => e.resourceId),
    ],
    // Edits are the runs' own: one list for both, keyed by nothing.
    [
      PAYROLL_CELL_EDITS,
      byRecord(edits ? await audit.entriesOf(PAYROLL_CELL_EDITS, [String(newer.id), String(older.id)]) : [], () => '0'),
    ],
  ]);
  return {
    /** The newest entry of the record naming `key` among its changes (any entry with a null key). */
    of(resource: string, resourceId: number, key: string | null): { changed_by: number | null; changed_at: string | null } {
      const e = found
        .get(resource)
        ?.get(String(resourceId))
        ?.find((x) => key === null || Object.hasOwn(x.changes, key));
      return { changed_by: e?.actorUserId ?? null, changed_at: e ? e.at.toISOString() : null };
    },
  };
}
