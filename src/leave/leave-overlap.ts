import { DomainException } from '../common/errors/domain.exception';
import { LeaveRequest } from './entities/leave.entities';

/** 409 LEAVE_OVERLAP naming the request overlapped and its days. */
export function overlapping(o: LeaveRequest): DomainException {
  const span = o.dateStart === o.dateEnd ? o.dateStart : `${o.dateStart} to ${o.dateEnd}`;
  return new DomainException(
    'LEAVE_OVERLAP',
    `The request overlaps your ${o.status.toLowerCase()} leave request ${o.id} (${span}): cancel or change that one first`,
    [{ field: 'date_start', message: `overlaps leave request ${o.id} (${span})` }],
  );
}
