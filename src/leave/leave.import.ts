import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import {
  ImportColumn,
  ImportKind,
  ImportKinds,
  ImportRow,
  ImportRun,
  ImportSession,
  RowDetail,
} from '../common/import/import-kind';
import { bodyOf, idsByName, resolveName, rowByRow } from '../common/import/row-by-row';
import { EmployeeLookup } from '../employees/employee-lookup';
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
export class LeaveEntitlementsImport implements OnModuleInit, ImportKind {
  readonly kind = 'leave-entitlements';
  readonly columns = ENTITLEMENT_COLUMNS;
  readonly validatesWithoutWriting = false;
  readonly batchSize = 500;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly kinds: ImportKinds,
    private readonly setup: LeaveSetupService,
    private readonly lookup: EmployeeLookup,
  ) {}

  onModuleInit(): void {
    this.kinds.register(this);
  }

  async start(run: ImportRun): Promise<ImportSession> {
    const types = idsByName(await this.ds.getRepository(LeaveType).find({ select: { id: true, name: true } }));
    const periods = idsByName(await this.ds.getRepository(LeavePeriod).find({ select: { id: true, name: true } }));
    return {
      batch: async (em: EntityManager, rows: ImportRow[]): Promise<RowDetail[]> => {
        const ids = await this.lookup.idsOf(
          em,
          rows.map((r) => r.values.get('employee')),
        );
        return rowByRow(
          em,
          rows,
          SetEntitlementDto,
          (row, problems) => {
            const body = this.lookup.withEmployee(row, bodyOf(row, ENTITLEMENT_COLUMNS), ids, problems);
            if (!body) return null;
            const resolved = [
              resolveName(row.row, 'leave_type', body, types, problems),
              resolveName(row.row, 'leave_period', body, periods, problems),
            ];
            return resolved.every(Boolean) ? body : null;
          },
          (dto) => this.setup.setEntitlement(run.caller, dto),
        );
      },
    };
  }
}
