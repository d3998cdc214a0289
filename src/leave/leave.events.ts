import { LeaveStatus } from './entities/leave.entities';

/** Events for the Tasks module: approval tasks on request, clean-up on decision. */
export const LEAVE_REQUESTED_EVENT = 'leave.requested';
export const LEAVE_DECIDED_EVENT = 'leave.decided';
export interface LeaveEvent {
  requestId: number;
  employeeId: number;
  status: LeaveStatus;
}
