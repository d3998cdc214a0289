import { DomainException } from '../common/errors/domain.exception';
import type { LeaveTypeBalanceDto } from './dto/leave.dto';
import { fromH, toH } from './engine/accrual-engine';
import type { Balance } from './ledger/leave-balances';

/** Days are counted in halves: one decimal, never binary-float noise such as 2.3000000000000003. */
export const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * The summary's view of a ledger balance (GET /employees/{id}/leaves/summary): `entitled` is what
 * the period credits (opening, accruals, carry-over, adjustments, less expiries and encashments),
 * `taken` the approved days, `pending` the pending ones; available = entitled − taken.
 */
export function summaryOf(b: Balance, types: Array<{ id: number; name: string }>): LeaveTypeBalanceDto {
  return {
    leave_type: b.leaveType,
    name: types.find((t) => t.id === b.leaveType)?.name ?? '',
    entitled: fromH(b.available + b.taken),
    taken: fromH(b.taken),
    pending: fromH(b.pending),
    available: fromH(b.available),
  };
}

/** The policy in force may let the balance go negative; without a policy, the leave type decides. */
export function allowsNegative(type: { allowNegative: boolean }, b: Pick<Balance, 'policy'>): boolean {
  return type.allowNegative || (b.policy?.allowNegative ?? false);
}

/** A new request may take at most available − pending days, unless the balance may go negative. */
export function assertCovers(days: number, b: Pick<Balance, 'available' | 'pending'>, allowNegative: boolean): void {
  const free = fromH(b.available - b.pending);
  if (toH(days) > b.available - b.pending && !allowNegative) {
    throw new DomainException(
      'INSUFFICIENT_BALANCE',
      `${days} days requested, ${free} free (${fromH(b.available)} available, ${fromH(b.pending)} pending)`,
      [{ field: 'days', message: `exceeds the free balance of ${free}` }],
    );
  }
}
