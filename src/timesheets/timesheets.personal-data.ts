import { Injectable } from '@nestjs/common';
import { PersonalData } from '../common/privacy/personal-data';
import { rowsCategory } from '../common/privacy/retention';
import { TimeEntry } from './entities/timesheet.entities';

/** A person's time entries (issue 69): in its subject-access export; they stay after anonymisation, as payroll counts them. */
@Injectable()
export class TimesheetsPersonalData {
  constructor(registry: PersonalData) {
    registry.register({
      name: 'timesheets',
      order: 70,
      export: (em, employeeId, out) =>
        out.lists('timesheets.json', 'the time entries (project, day, hours, status)', [
          { name: 'time_entries', entity: TimeEntry, where: { employeeId } },
        ]),
    });
    registry.retain(
      rowsCategory('timesheets', 'time entries: anonymise clears their details, delete deletes them', {
        anonymise: [{ entity: TimeEntry, clear: ['details'] }],
        delete: [{ entity: TimeEntry }],
      }),
    );
  }
}
