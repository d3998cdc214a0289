import { Injectable } from '@nestjs/common';
import { declareImportKind } from '../common/import/import-kinds.constants';
import { EntityManager } from 'typeorm';
import { ImportColumn, ImportKinds, ImportRow, ImportRun, ImportSession, RowDetail } from '../common/import/import-kind';
import { EmployeeLookup, EmployeeRowsKind } from '../employees/core/employee-lookup';
import { rowByRow } from '../common/import/row-by-row';
import { AttendanceService } from './attendance.service';
import { CreateAttendanceDto } from './dto/attendance.dto';

/** Declared when this file loads (common/import/import-kinds.constants.ts). */
const ATTENDANCE_IMPORT = declareImportKind('attendance');

export const ATTENDANCE_COLUMNS: readonly ImportColumn[] = [
  { field: 'employee', label: 'Employee ID', type: 'text', example: 'E0042', required: true, note: 'employee_id (or id)' },
  { field: 'in_time', label: 'In', type: 'date-time', example: '2024-03-12T09:00:00+01:00', required: true },
  { field: 'out_time', label: 'Out', type: 'date-time', example: '2024-03-12T17:30:00+01:00' },
  { field: 'note', label: 'Note', type: 'text', example: null },
  { field: 'work_from_home', label: 'Work from home', type: 'boolean', example: false },
];

/**
 * The `attendance` import kind: each row is POST /attendance (its DTO, scope, overlap rules and the
 * insights rollups it keeps), under a savepoint; employees by employee_id, looked up per batch.
 */
@Injectable()
export class AttendanceImport extends EmployeeRowsKind {
  readonly kind = ATTENDANCE_IMPORT;
  readonly columns = ATTENDANCE_COLUMNS;

  constructor(
    kinds: ImportKinds,
    lookup: EmployeeLookup,
    private readonly attendance: AttendanceService,
  ) {
    super(kinds, lookup);
  }

  start(run: ImportRun): Promise<ImportSession> {
    return Promise.resolve({
      batch: async (em: EntityManager, rows: ImportRow[]): Promise<RowDetail[]> => {
        const problems: RowDetail[] = [];
        const bodies = await this.bodies(em, rows, ATTENDANCE_COLUMNS, {}, problems);
        const refused = await rowByRow(
          em,
          rows,
          CreateAttendanceDto,
          (row) => bodies.get(row) ?? null,
          (dto) => this.attendance.create(run.caller, dto),
        );
        return [...problems, ...refused];
      },
    });
  }
}
