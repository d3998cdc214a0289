import { ListSpec } from '../../common/paging/list-request';
import { LeaveBalanceDto, LeaveLedgerEntryDto } from '../dto/leave-ledger.dto';
import { LeaveLedgerEntry } from '../entities/leave-ledger.entities';
import { dateOnly } from '../engine/calendar';
import { fromH, LEDGER_KINDS, LedgerKind, PolicyRule, Window, windowOn } from '../engine/accrual-engine';

/** The leave ledger's read model, pure: the list, the balance and its view, as the API shows them. */

export const LEDGER_LIST_SPEC: ListSpec = {
  idColumn: 'x.id',
  defaultSort: { field: 'date', order: 'descend' },
  sortFields: { id: 'x.id', date: 'x.date' },
  dateRange: { start: 'x.date', end: 'x.date' },
  filterFields: {
    leave_type: { column: 'x.leave_type_id', type: 'int' },
    kind: { column: 'x.kind', type: 'string', values: LEDGER_KINDS },
  },
};

export const toLedgerDto = (x: LeaveLedgerEntry): LeaveLedgerEntryDto => ({
  id: x.id,
  employee: x.employeeId,
  leave_type: x.leaveTypeId,
  date: dateOnly(x.date),
  kind: x.kind,
  days: x.days,
  source: x.source,
  source_id: x.sourceId,
  created_by: x.createdBy,
  note: x.note,
});

/** Days owed (hundredths) to the employees of one leave type and department with a positive balance. */
export interface LiabilityRow {
  leaveType: number;
  department: number | null;
  employees: number;
  days: number;
}

/** A balance in hundredths, by the fields of LeaveBalanceDto. */
export interface Balance {
  leaveType: number;
  opening: number;
  accrued: number;
  taken: number;
  pending: number;
  carriedOver: number;
  expired: number;
  adjusted: number;
  encashed: number;
  available: number;
  /** The policy in force on the day asked about. */
  policy: PolicyRule | null;
}

export const balanceDto = (b: Balance): LeaveBalanceDto => ({
  leave_type: b.leaveType,
  opening: fromH(b.opening),
  accrued: fromH(b.accrued),
  taken: fromH(b.taken),
  pending: fromH(b.pending),
  carried_over: fromH(b.carriedOver),
  expired: fromH(b.expired),
  adjusted: fromH(b.adjusted),
  encashed: fromH(b.encashed),
  available: fromH(b.available),
});

/**
 * How a balance is read. `as_of`: the entries dated up to the day (for a later day, what the
 * policies will owe by then). `commitment`: what a new request or an approval may spend in the
 * leave period of the day — every entry of the period (approved days ahead included), the
 * accruals earned by today (or granted on the period's first day), the expiry already due by what
 * is taken.
 */
export type BalanceView = { kind: 'as_of'; day: string } | { kind: 'commitment'; day: string; today: string };

/** The windows the balance of `day` depends on: its own and the one before (whose carry-over flows in). */
export function windowsAround(windows: Window[], day: string): Window[] {
  const w = windowOn(windows, day);
  if (!w) return [];
  const i = windows.indexOf(w);
  return windows.slice(Math.max(0, i - 1), i + 1);
}

/** A balance from the entries (written and owed) that count, and the pending requests' days. */
export function sumBalance(
  leaveType: number,
  entries: Array<{ kind: LedgerKind; days: number }>,
  pending: number,
  policy: PolicyRule | null,
): Balance {
  const by = (...kinds: LedgerKind[]) => entries.filter((x) => kinds.includes(x.kind)).reduce((s, x) => s + x.days, 0);
  const b = {
    leaveType,
    opening: by('opening'),
    accrued: by('accrual'),
    taken: -by('taken', 'reversal'),
    pending,
    carriedOver: by('carry_over'),
    expired: -by('expiry'),
    adjusted: by('adjustment'),
    encashed: -by('encashment'),
    policy,
  };
  return { ...b, available: entries.reduce((s, x) => s + x.days, 0) };
}
