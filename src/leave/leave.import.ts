import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ImportColumn, ImportKinds, ImportRow, ImportRun, ImportSession, RowDetail } from '../common/import/import-kind';
import { idsByName, rowByRow } from '../common/import/row-by-row';
import { EmployeeLookup, EmployeeRowsKind } from '../employees/employee-lookup';
import { SetEntitlementDto } from './dto/leave.dto';
import { LeavePeriod, LeaveType } from './entities/leave.entities';
import { LeaveSetupService } from './leave-setup.service';

export const ENTITLEMENT_COLUMNS: readonly ImportColumn[] = [
  { field: 'employee', label: 'Employee ID', type: 'text', example: 'E0042', required: true, note: 'employee_id (or id)' },
  { field: 'leave_type', label: 'Leave type', type: 'reference', example: 'Annual leave', required: true, note: 'by name or id' },
  { field: 'leave_period', label: 'Leave period', type: 'reference', example: '2026', required: true, note: 'by name or id' },
  { field: 'days', label: 'Days', type: 'number', example: 25, required: true },
];

/**
 * The `leave-entitlements` import kind: each row is POST /leave-entitlements (the entitlement of an
 * employee, leave type and period is set, created or replaced), with that route's rules.
 */
@Injectable()
export class LeaveEntitlementsImport extends EmployeeRowsKind {
  readonly kind = 'leave-entitlements';
  readonly columns = ENTITLEMENT_COLUMNS;

  constructor(
    kinds: ImportKinds,
    lookup: EmployeeLookup,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly setup: LeaveSetupService,
  ) {
    super(kinds, lookup);
  }

  async start(run: ImportRun): Promise<ImportSession> {
    const named = { select: { id: true, name: true } } as const;
    const refs = {
      leave_type: idsByName(await this.ds.getRepository(LeaveType).find(named)),
      leave_period: idsByName(await this.ds.getRepository(LeavePeriod).find(named)),
    };
    return {
      batch: async (em: EntityManager, rows: ImportRow[]): Promise<RowDetail[]> => {
        const problems: RowDetail[] = [];
        const bodies = await this.bodies(em, rows, ENTITLEMENT_COLUMNS, refs, problems);
        const refused = await rowByRow(
          em,
          rows,
          SetEntitlementDto,
          (row) => bodies.get(row) ?? null,
          (dto) => this.setup.setEntitlement(run.caller, dto),
        );
        return [...problems, ...refused];
      },
    };
  }
}
