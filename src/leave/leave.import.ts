import { Injectable } from '@nestjs/common';
import { declareImportKind } from '../common/import/import-kinds.constants';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ImportColumn, ImportKinds, ImportRow, ImportRun, ImportSession, RowDetail } from '../common/import/import-kind';
import { idsByName, rowByRow } from '../common/import/row-by-row';
import { EmployeeLookup, EmployeeRowsKind } from '../employees/core/employee-lookup';
import { SetEntitlementDto } from './dto/leave.dto';
import { LeaveOpeningDto } from './dto/leave-ledger.dto';
import { LeavePeriod, LeaveType } from './entities/leave.entities';
import { LeaveLedgerService } from './ledger/leave-ledger.service';
import { LeaveSetupService } from './leave-setup.service';

/** Declared when this file loads (common/import/import-kinds.constants.ts). */
const LEAVE_ENTITLEMENTS_IMPORT = declareImportKind('leave-entitlements');
const LEAVE_BALANCES_IMPORT = declareImportKind('leave-balances');

export const ENTITLEMENT_COLUMNS: readonly ImportColumn[] = [
  { field: 'employee', label: 'Employee ID', type: 'text', example: 'E0042', required: true, note: 'employee_id (or id)' },
  { field: 'leave_type', label: 'Leave type', type: 'reference', example: 'Annual', required: true, note: 'by name or id' },
  { field: 'leave_period', label: 'Leave period', type: 'reference', example: '2026', required: true, note: 'by name or id' },
  { field: 'days', label: 'Days', type: 'number', example: 25, required: true },
];

/**
 * The `leave-entitlements` import kind: each row is POST /leave-entitlements (the entitlement of an
 * employee, leave type and period is set, created or replaced), with that route's rules.
 */
@Injectable()
export class LeaveEntitlementsImport extends EmployeeRowsKind {
  readonly kind = LEAVE_ENTITLEMENTS_IMPORT;
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

export const LEAVE_BALANCE_COLUMNS: readonly ImportColumn[] = [
  { field: 'employee', label: 'Employee ID', type: 'text', example: 'E0042', required: true, note: 'employee_id (or id)' },
  { field: 'leave_type', label: 'Leave type', type: 'reference', example: 'Annual', required: true, note: 'by name or id' },
  {
    field: 'days',
    label: 'Days',
    type: 'number',
    example: 7.5,
    required: true,
    note: 'the balance brought in; negative: days owed',
  },
  { field: 'date', label: 'Date', type: 'date', example: '2026-01-01', note: "default: the first day of today's leave period" },
  { field: 'note', label: 'Note', type: 'text', example: 'balance from the previous system' },
];

/**
 * The `leave-balances` import kind: each row is an opening balance, an `opening` entry of the leave
 * ledger (source `import`, source_id the import), once per employee, leave type and day.
 */
@Injectable()
export class LeaveBalancesImport extends EmployeeRowsKind {
  readonly kind = LEAVE_BALANCES_IMPORT;
  readonly columns = LEAVE_BALANCE_COLUMNS;

  constructor(
    kinds: ImportKinds,
    lookup: EmployeeLookup,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly ledger: LeaveLedgerService,
  ) {
    super(kinds, lookup);
  }

  async start(run: ImportRun): Promise<ImportSession> {
    const refs = { leave_type: idsByName(await this.ds.getRepository(LeaveType).find({ select: { id: true, name: true } })) };
    return {
      batch: async (em: EntityManager, rows: ImportRow[]): Promise<RowDetail[]> => {
        const problems: RowDetail[] = [];
        const bodies = await this.bodies(em, rows, LEAVE_BALANCE_COLUMNS, refs, problems);
        const refused = await rowByRow(
          em,
          rows,
          LeaveOpeningDto,
          (row) => bodies.get(row) ?? null,
          (dto) => this.ledger.open(run.caller, dto, em, run.id),
        );
        return [...problems, ...refused];
      },
    };
  }
}
