import { ListSpec } from '../common/paging/list-request';
import { LeaveRequestRowDto } from './dto/leave.dto';
import { LEAVE_STATUSES, LeaveRequest, LeaveStatus } from './entities/leave.entities';

export const LEAVE_LIST_SPEC: ListSpec = {
  defaultSort: { field: 'date_start', order: 'descend' },
  dateRange: { start: 'l.date_start', end: 'l.date_end' },
  updatedAt: 'l.updated_at',
  idColumn: 'l.id',
  sortFields: { id: 'l.id', date_start: 'l.date_start' },
  filterFields: {
    employee: { column: 'l.employee_id', type: 'int' },
    leave_type: { column: 'l.leave_type_id', type: 'int' },
    status: { column: 'l.status', type: 'string', values: LEAVE_STATUSES },
  },
};

export function toLeaveDto(l: LeaveRequest): LeaveRequestRowDto {
  return {
    id: l.id,
    employee: l.employeeId,
    leave_type: l.leaveTypeId,
    date_start: l.dateStart,
    date_end: l.dateEnd,
    half_day: l.halfDay,
    days: l.days,
    status: l.status,
    reason: l.reason,
    approver: l.approverId,
    decided_at: l.decidedAt ? l.decidedAt.toISOString() : null,
    created_at: l.createdAt.toISOString(),
  };
}

/** What an approver's inbox says of a request: "Annual Leave 2026-12-01 to 2026-12-05 (5 days)". */
export function leaveSummary(type: string, start: string, end: string, days: number): string {
  return `${type} ${start}${end !== start ? ` to ${end}` : ''} (${days} day${days === 1 ? '' : 's'})`;
}

/** The audit log's action for a transition to each status. */
export const ACTION_OF: Record<LeaveStatus, string> = {
  Pending: 'update',
  Approved: 'approve',
  Rejected: 'reject',
  Cancelled: 'cancel',
};
