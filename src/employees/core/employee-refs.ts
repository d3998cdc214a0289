import { Injectable } from '@nestjs/common';
import { CalendarsService } from '../../calendars/calendars.service';
import { ReferenceService } from '../../reference/reference.service';
import { EmployeeField } from './employee-fields';

/** What an employee field's id may point to besides another employee: a reference table or a work calendar. */
export type TableRef = Exclude<EmployeeField['ref'], 'employee' | undefined>;

/** The checks and name lookups of an employee's references, whichever module keeps the table. */
@Injectable()
export class EmployeeRefs {
  constructor(
    private readonly reference: ReferenceService,
    private readonly calendars: CalendarsService,
  ) {}

  async exists(ref: TableRef, id: number): Promise<boolean> {
    return ref === 'calendar' ? (await this.calendars.byIds(null, [id])).has(id) : this.reference.exists(ref, id);
  }

  /** Lower-case name → ids (an import names a reference by name or id). */
  idsByName(ref: TableRef): Promise<Map<string, number[]>> {
    return ref === 'calendar' ? this.calendars.idsByName() : this.reference.idsByName(ref);
  }
}
