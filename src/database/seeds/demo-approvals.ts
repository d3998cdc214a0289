import { INestApplicationContext } from '@nestjs/common';
import { CompanyClock } from '../../common/time/company-clock';
import { DataSource } from 'typeorm';
import { ApprovalPoliciesService } from '../../approvals/approval-policies.service';
import { ApprovalsService } from '../../approvals/approvals.service';
import { ApprovalPolicy } from '../../approvals/entities/approval.entities';
import { OutboxRelay } from '../../common/outbox/outbox-relay';
import { withEmployeeLock } from '../../employees/core/employee-lock';
import { Employee } from '../../employees/entities/employee.entity';
import { LeaveType } from '../../leave/entities/leave.entities';
import { leaveSummary } from '../../leave/leave-request-views';
import { LeaveRequestsService } from '../../leave/leave-requests.service';
import { Department } from '../../reference/entities/reference.entities';
import { ReferenceService } from '../../reference/reference.service';
import { TimeEntry } from '../../timesheets/entities/timesheet.entities';
import { timeSummary } from '../../timesheets/timesheets.service';
import { User } from '../../users/entities/user.entity';
import { asCaller } from './demo-notifications';

/** The Monday `weeks` weeks from `now`. */
function monday(now: Date, weeks: number): Date {
  const d = new Date(now.getTime() + weeks * 7 * 86_400_000);
  while (d.getUTCDay() !== 1) d.setUTCDate(d.getUTCDate() + 1);
  return d;
}
const day = (d: Date, plus = 0) => new Date(d.getTime() + plus * 86_400_000).toISOString().slice(0, 10);

/**
 * Approval chains in the demo (issue 45). The bulk-seeded pending requests and submitted time
 * entries get the single step they would have had before chains (as the migration gives them).
 * Then: Engineering's head is the demo manager; leave of five days or more goes to the supervisor,
 * then the department head; the manager is off for three days in four weeks with a delegation to
 * the Platform lead (weeks ahead, or behind late in the year); a Platform engineer's week of leave, approved at step 1 (by the Admin for its
 * lead, who has no user), waits at step 2 in the manager's inbox. Idempotent.
 */
export async function seedDemoApprovals(app: INestApplicationContext, users: { admin: User; manager: User }): Promise<void> {
  const ds = app.get(DataSource);
  if (await ds.getRepository(ApprovalPolicy).exists({ where: { appliesTo: 'leave' } })) return;
  await chainsOfSeededRequests(app);
  const code = async (c: string) => (await ds.getRepository(Employee).findOneOrFail({ where: { employeeId: c } })).id;
  const department = async (name: string) => (await ds.getRepository(Department).findOneOrFail({ where: { name } })).id;
  const manager = users.manager.employeeId!;
  await app.get(ReferenceService).departments.update(await department('Engineering'), { head: manager });
  await app.get(ApprovalPoliciesService).createPolicy({
    name: 'Leave of five days or more',
    applies_to: 'leave',
    conditions: { min_days: 5 },
    steps: [
      { approvers: ['supervisor'], mode: 'any' },
      { approvers: ['department_head'], mode: 'any' },
    ],
    escalate_after_days: 3,
  });
  const annual = await ds.getRepository(LeaveType).findOneOrFail({ where: { name: 'Annual' } });
  const leaves = app.get(LeaveRequestsService);
  const admin = asCaller(users.admin);
  // The first weeks free of seeded leave and inside a leave period: ahead if this year allows, else behind.
  const firstThat = async <T>(weeks: number[], make: (start: Date) => Promise<T>): Promise<T | null> => {
    for (const w of weeks)
      try {
        return await make(monday(app.get(CompanyClock).now(), w));
      } catch {
        // overlapping seeded leave, or outside the leave periods: the next week
      }
    return null;
  };
  const holiday = await firstThat([3, 4, 5, -2, -3, -5], async (start) => {
    const off = await leaves.create(admin, {
      employee: manager,
      leave_type: annual.id,
      date_start: day(start),
      date_end: day(start, 2),
      reason: 'Holiday',
    });
    await leaves.decide(admin, off.id, 'Approved', 'Enjoy');
    return start;
  });
  if (holiday)
    await app.get(ApprovalPoliciesService).createDelegation(admin, {
      delegator: manager,
      delegate: await code('E0003'),
      date_start: day(holiday),
      date_end: day(holiday, 2),
    });
  const engineer = await code('E0015');
  await firstThat([2, 3, 4, 5, -1, -4, -6, -7], async (start) => {
    const leave = await leaves.create(admin, {
      employee: engineer,
      leave_type: annual.id,
      date_start: day(start),
      date_end: day(start, 4),
      reason: 'Family visit',
    });
    if (leave.days < 5) {
      await leaves.cancel(admin, leave.id); // a holiday in that week: one step only
      throw new Error('a short week');
    }
    await leaves.decide(admin, leave.id, 'Approved', 'For the Platform lead, who is travelling');
  });
  // Its notifications and tasks now, not whenever the relay's interval comes round during the seed.
  await app.get(OutboxRelay).drain();
}

/** A chain for every pending leave request and submitted time entry without one (the bulk-seeded ones). */
async function chainsOfSeededRequests(app: INestApplicationContext): Promise<void> {
  const ds = app.get(DataSource);
  const approvals = app.get(ApprovalsService);
  const leaves = await ds.query<Array<Record<string, unknown>>>(
    "SELECT r.id, r.employee_id, r.leave_type_id, r.days, r.date_start, r.date_end, t.name FROM leave_requests r JOIN leave_types t ON t.id = r.leave_type_id LEFT JOIN approvals a ON a.kind = 'leave' AND a.request_id = r.id WHERE r.status = 'Pending' AND a.id IS NULL",
  );
  for (const r of leaves)
    await withEmployeeLock(ds, Number(r.employee_id), (em) =>
      approvals.start(em, {
        kind: 'leave',
        requestId: Number(r.id),
        employeeId: Number(r.employee_id),
        leaveTypeId: Number(r.leave_type_id),
        days: Number(r.days),
        summary: leaveSummary(String(r.name), String(r.date_start).slice(0, 10), String(r.date_end).slice(0, 10), Number(r.days)),
      }),
    );
  const entries = await ds.query<Array<Record<string, unknown>>>(
    "SELECT r.id, r.employee_id, r.date, r.start_time, r.end_time FROM time_entries r LEFT JOIN approvals a ON a.kind = 'time' AND a.request_id = r.id WHERE r.status = 'Submitted' AND a.id IS NULL",
  );
  for (const r of entries)
    await withEmployeeLock(ds, Number(r.employee_id), (em) =>
      approvals.start(em, {
        kind: 'time',
        requestId: Number(r.id),
        employeeId: Number(r.employee_id),
        leaveTypeId: null,
        days: null,
        summary: timeSummary({
          date: String(r.date).slice(0, 10),
          start: String(r.start_time),
          end: String(r.end_time),
        } as TimeEntry),
      }),
    );
}
