import { Injectable } from '@nestjs/common';
import { PersonalData } from '../common/privacy/personal-data';
import { rowsCategory } from '../common/privacy/retention';
import { LeaveLedgerEntry } from './entities/leave-ledger.entities';
import { LeaveDay, LeaveEntitlement, LeaveRequest } from './entities/leave.entities';

/** A person's leave (issue 69): in its subject-access export; it stays after anonymisation, as leave totals count it. */
@Injectable()
export class LeavePersonalData {
  constructor(registry: PersonalData) {
    registry.register({
      name: 'leave',
      order: 70,
      export: (em, employeeId, out) =>
        out.lists(
          'leave.json',
          'the leave requests with their days, the entitlements and the leave ledger (accruals, takings, adjustments)',
          [
            { name: 'requests', entity: LeaveRequest, where: { employeeId } },
            { name: 'days', entity: LeaveDay, where: { employeeId } },
            { name: 'entitlements', entity: LeaveEntitlement, where: { employeeId } },
            { name: 'ledger', entity: LeaveLedgerEntry, where: { employeeId } },
          ],
        ),
    });
    registry.retain(
      rowsCategory(
        'leave',
        'leave requests and the leave ledger: anonymise clears their reasons and notes, delete deletes the requests, their days and the ledger entries',
        {
          anonymise: [
            { entity: LeaveRequest, clear: ['reason'] },
            { entity: LeaveLedgerEntry, clear: ['note'] },
          ],
          delete: [{ entity: LeaveDay }, { entity: LeaveRequest }, { entity: LeaveLedgerEntry }],
        },
      ),
    );
  }
}
