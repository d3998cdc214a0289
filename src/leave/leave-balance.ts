import { DomainException } from '../common/errors/domain.exception';

/** Days are counted in halves: one decimal, never binary-float noise such as 2.3000000000000003. */
export const round1 = (n: number) => Math.round(n * 10) / 10;

export interface LeaveBalance {
  leave_type: number;
  name: string;
  entitled: number;
  taken: number;
  pending: number;
  available: number;
}

/**
 * One leave type's balance in a period: `entitled` is the employee's entitlement (else the type's
 * default), `taken` the approved days, `pending` the pending ones; available = entitled − taken, so
 * an approval moves days from available to taken.
 */
export function balanceOf(
  type: { id: number; name: string; defaultDays: number },
  entitlement: number | undefined,
  taken: number,
  pending: number,
): LeaveBalance {
  const entitled = entitlement ?? type.defaultDays;
  return {
    leave_type: type.id,
    name: type.name,
    entitled,
    taken: round1(taken),
    pending: round1(pending),
    available: round1(entitled - taken),
  };
}

/** A new request may take at most available − pending days, unless the type allows a negative balance. */
export function assertCovers(days: number, balance: LeaveBalance, allowNegative: boolean): void {
  const free = round1(balance.available - balance.pending);
  if (days > free && !allowNegative) {
    throw new DomainException(
      'INSUFFICIENT_BALANCE',
      `${days} days requested, ${free} free (${balance.available} available, ${balance.pending} pending)`,
      [{ field: 'days', message: `exceeds the free balance of ${free}` }],
    );
  }
}
