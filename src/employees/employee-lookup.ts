import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Cell } from '../common/import/sheet-readers';
import { cellText, ImportRow, RowDetail } from '../common/import/import-kind';
import { EmployeesRepository } from './employees.repository';

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
    const id = ids.get(named) ?? (/^\d{1,10}$/.test(named) ? Number(named) : undefined);
    if (id === undefined) {
      problems.push({ row: row.row, field: 'employee', message: 'Employee not found' });
      return null;
    }
    return { ...body, employee: id };
  }
}
