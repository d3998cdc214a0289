import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Cell } from '../../common/import/sheet-readers';
import {
  cellText,
  ImportColumn,
  ImportKind,
  ImportKinds,
  ImportRow,
  ImportRun,
  ImportSession,
  RowDetail,
} from '../../common/import/import-kind';
import { bodyOf, resolveName } from '../../common/import/row-by-row';
import { EmployeesRepository } from './employees.repository';

/** The spreadsheet column label of an employee field (import templates and their problems). */
const LABELS: Record<string, string> = {
  employee_id: 'Employee ID',
  ssn_num: 'SSN',
  nic_num: 'NIC',
  address1: 'Address line 1',
  address2: 'Address line 2',
  approver1: 'Approver 1',
  approver2: 'Approver 2',
  approver3: 'Approver 3',
};

export const label = (field: string) => LABELS[field] ?? field.charAt(0).toUpperCase() + field.slice(1).replace(/_/g, ' ');

/** Fields that name another employee: by employee_id in a file. */
export const EMPLOYEE_REFS = new Set(['supervisor', 'approver1', 'approver2', 'approver3']);

/**
 * Employees named in an import's rows (an `employee` column): by employee_id, or by id when no
 * employee has that employee_id; one query per batch. Scope is the service's to check, as for a
 * JSON request naming the id.
 */
@Injectable()
export class EmployeeLookup {
  constructor(private readonly repository: EmployeesRepository) {}

  /** employee_id → id for the cells' values. */
  async idsOf(em: EntityManager, cells: ReadonlyArray<Cell | undefined>): Promise<Map<string, number>> {
    const wanted = [...new Set(cells.map((c) => cellText(c)).filter((v): v is string => v !== undefined))];
    return new Map((await this.repository.byEmployeeIds(em, wanted)).map((e) => [e.employeeId, e.id]));
  }

  /** The id an employee cell names: its employee_id among `ids`, else the id itself when it is digits. */
  idOf(named: string, ids: Map<string, number>): number | undefined {
    return ids.get(named) ?? (/^\d{1,10}$/.test(named) ? Number(named) : undefined);
  }

  /** The body with `employee` as the id; null (and a problem) when the row names nobody. */
  withEmployee(
    row: ImportRow,
    body: Record<string, unknown>,
    ids: Map<string, number>,
    problems: RowDetail[],
  ): Record<string, unknown> | null {
    const named = typeof body.employee === 'string' || typeof body.employee === 'number' ? String(body.employee) : undefined;
    if (named === undefined) {
      problems.push({ row: row.row, field: 'employee', message: 'must not be empty' });
      return null;
    }
    const id = this.idOf(named, ids);
    if (id === undefined) {
      problems.push({ row: row.row, field: 'employee', message: 'Employee not found' });
      return null;
    }
    return { ...body, employee: id };
  }
}

/**
 * An import kind whose rows name an employee (`employee`: employee_id or id, one lookup per batch)
 * and go through the module's own service row by row (rowByRow): it registers itself.
 */
export abstract class EmployeeRowsKind implements OnModuleInit, ImportKind {
  readonly batchSize = 500;
  readonly validatesWithoutWriting = false;
  abstract readonly kind: string;
  abstract readonly columns: readonly ImportColumn[];

  constructor(
    protected readonly kinds: ImportKinds,
    protected readonly lookup: EmployeeLookup,
  ) {}

  abstract start(run: ImportRun): Promise<ImportSession>;

  onModuleInit(): void {
    this.kinds.register(this);
  }

  /** The rows' bodies with `employee` as an id and references resolved; null for a row with a problem. */
  protected async bodies(
    em: EntityManager,
    rows: ImportRow[],
    columns: readonly ImportColumn[],
    refs: Record<string, Map<string, number | null>>,
    problems: RowDetail[],
  ): Promise<Map<ImportRow, Record<string, unknown> | null>> {
    const ids = await this.lookup.idsOf(
      em,
      rows.map((r) => r.values.get('employee')),
    );
    return new Map(
      rows.map((row) => {
        const body = this.lookup.withEmployee(row, bodyOf(row, columns), ids, problems);
        const resolved = body
          ? Object.entries(refs).map(([field, names]) => resolveName(row.row, field, body, names, problems))
          : [false];
        return [row, resolved.every(Boolean) ? body : null];
      }),
    );
  }
}
