import { Injectable } from '@nestjs/common';
import { PersonalData } from '../common/privacy/personal-data';
import { rowsCategory } from '../common/privacy/retention';
import { AttendanceRecord } from './entities/attendance.entity';

/** A person's attendance (issue 69): in its subject-access export; it stays after anonymisation, as payroll counts it. */
@Injectable()
export class AttendancePersonalData {
  constructor(registry: PersonalData) {
    registry.register({
      name: 'attendance',
      order: 70,
      export: (em, employeeId, out) =>
        out.lists('attendance.json', 'the attendance records (punch in and out, notes)', [
          { name: 'attendance', entity: AttendanceRecord, where: { employeeId } },
        ]),
    });
    registry.retain(
      rowsCategory('attendance', 'attendance records: anonymise clears their notes, delete deletes them', {
        anonymise: [{ entity: AttendanceRecord, clear: ['note'] }],
        delete: [{ entity: AttendanceRecord }],
      }),
    );
  }
}
