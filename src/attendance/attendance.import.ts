import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import {
  ImportColumn,
  ImportKind,
  ImportKinds,
  ImportRow,
  ImportRun,
  ImportSession,
  RowDetail,
} from '../common/import/import-kind';
import { EmployeeLookup } from '../employees/employee-lookup';
import { bodyOf, rowByRow } from '../common/import/row-by-row';
import { AttendanceService } from './attendance.service';
import { CreateAttendanceDto } from './dto/attendance.dto';

export const ATTENDANCE_COLUMNS: readonly ImportColumn[] = [
  { field: 'employee', label: 'Employee ID', type: 'text', example: 'E0042', required: true, note: 'employee_id (or id)' },
  { field: 'in_time', label: 'In', type: 'date-time', example: '2026-03-10T09:00:00+01:00', required: true },
  { field: 'out_time', label: 'Out', type: 'date-time', example: '2026-03-10T17:30:00+01:00' },
  { field: 'note', label: 'Note', type: 'text', example: null },
  { field: 'work_from_home', label: 'Work from home', type: 'boolean', example: false },
];

/**
 * The `attendance` import kind: each row is POST /attendance (its DTO, scope, overlap rules and the
 * insights rollups it keeps), under a savepoint; employees by employee_id, looked up per batch.
 */
@Injectable()
export class AttendanceImport implements OnModuleInit, ImportKind {
  readonly kind = 'attendance';
  readonly columns = ATTENDANCE_COLUMNS;
  readonly validatesWithoutWriting = false;
  readonly batchSize = 500;

  constructor(
    private readonly kinds: ImportKinds,
    private readonly attendance: AttendanceService,
    private readonly lookup: EmployeeLookup,
  ) {}

  onModuleInit(): void {
    this.kinds.register(this);
  }

  start(run: ImportRun): Promise<ImportSession> {
    return Promise.resolve({
      batch: async (em: EntityManager, rows: ImportRow[]): Promise<RowDetail[]> => {
        const ids = await this.lookup.idsOf(
          em,
          rows.map((r) => r.values.get('employee')),
        );
        return rowByRow(
          em,
          rows,
          CreateAttendanceDto,
          (row, problems) => this.lookup.withEmployee(row, bodyOf(row, ATTENDANCE_COLUMNS), ids, problems),
          (dto) => this.attendance.create(run.caller, dto),
        );
      },
    });
  }
}
