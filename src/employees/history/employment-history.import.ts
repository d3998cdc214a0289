import { Injectable } from '@nestjs/common';
import { declareImportKind } from '../../common/import/import-kinds.constants';
import { EntityManager } from 'typeorm';
import {
  cellText,
  ImportColumn,
  ImportKinds,
  ImportRow,
  ImportRun,
  ImportSession,
  RowDetail,
} from '../../common/import/import-kind';
import { rowByRow } from '../../common/import/row-by-row';
import { IsRefId } from '../../common/validation/decorators';
import { EMPLOYEE_FIELDS } from '../core/employee-fields';
import { EmployeeRefs } from '../core/employee-refs';
import { EMPLOYEE_REFS, label } from '../core/employee-lookup';
import { EmployeeLookup, EmployeeRowsKind } from '../core/employee-lookup';
import { RecordChangeDto } from './dto/employment-history.dto';
import { DATED_FIELDS, DatedField } from './employment-history';
import { EmploymentHistoryService } from './employment-history.service';

/** Declared when this file loads (common/import/import-kinds.constants.ts). */
const EMPLOYMENT_HISTORY_IMPORT = declareImportKind('employment-history');

const EXAMPLES: Partial<Record<DatedField, string>> = { job_title: 'Senior Software Engineer', department: 'Engineering' };

export const HISTORY_COLUMNS: readonly ImportColumn[] = [
  { field: 'employee', label: 'Employee ID', type: 'text', example: 'E0042', required: true, note: 'employee_id (or id)' },
  { field: 'effective_date', label: 'Effective date', type: 'date', example: '2025-04-01', required: true },
  { field: 'reason', label: 'Reason', type: 'text', example: 'Promotion' },
  ...DATED_FIELDS.map((f): ImportColumn => ({
    field: f,
    label: label(f),
    type: EMPLOYEE_REFS.has(f) ? 'text' : 'reference',
    example: EXAMPLES[f] ?? null,
    note: EMPLOYEE_REFS.has(f) ? 'employee_id (or id) of an employee already stored' : 'by name or id',
  })),
];

/**
 * `employment-history`: one dated change per row (a company's spreadsheet of past promotions and
 * transfers), recorded as POST /employees/{id}/changes records it, in file order: a later row of
 * the same employee and day wins, as a later recording does. An empty cell leaves that field as it
 * was on the day.
 */
@Injectable()
export class EmploymentHistoryImport extends EmployeeRowsKind {
  readonly kind = EMPLOYMENT_HISTORY_IMPORT;
  readonly columns = HISTORY_COLUMNS;

  constructor(
    kinds: ImportKinds,
    lookup: EmployeeLookup,
    private readonly refs: EmployeeRefs,
    private readonly history: EmploymentHistoryService,
  ) {
    super(kinds, lookup);
  }

  async start(run: ImportRun): Promise<ImportSession> {
    const names: Record<string, Map<string, number | null>> = {};
    for (const f of EMPLOYEE_FIELDS) {
      if (!(DATED_FIELDS as readonly string[]).includes(f.api) || !f.ref || f.ref === 'employee') continue;
      const byName = await this.refs.idsByName(f.ref);
      names[f.api] = new Map([...byName].map(([name, ids]) => [name, ids.length === 1 ? ids[0] : null]));
    }
    return {
      batch: async (em, rows) => {
        const problems: RowDetail[] = [];
        const bodies = await this.bodies(em, rows, HISTORY_COLUMNS, names, problems);
        const people = await this.employeeRefs(em, rows);
        const refused = await rowByRow(
          em,
          rows,
          ChangeWithEmployee,
          (row) => changeBody(row, bodies.get(row) ?? null, this.lookup, people, problems),
          (dto) => this.history.record(run.caller, dto.employee, dto),
        );
        // The route names a dated field `fields.<name>`; the file has it as its own column.
        for (const p of refused) problems.push({ ...p, field: p.field.replace(/^fields\./, '') });
        return problems;
      },
    };
  }

  /** employee_id → id of the employees the rows' supervisor and approver cells name (one query). */
  private employeeRefs(em: EntityManager, rows: ImportRow[]): Promise<Map<string, number>> {
    return this.lookup.idsOf(
      em,
      rows.flatMap((r) => [...EMPLOYEE_REFS].map((f) => r.values.get(f))),
    );
  }
}

/** The row as POST /employees/{id}/changes' body (with `employee`); null with a problem when it names someone unknown. */
function changeBody(
  row: ImportRow,
  body: Record<string, unknown> | null,
  lookup: EmployeeLookup,
  people: Map<string, number>,
  problems: RowDetail[],
): Record<string, unknown> | null {
  if (!body) return null;
  const fields: Record<string, unknown> = {};
  let ok = true;
  for (const f of DATED_FIELDS) {
    if (body[f] === undefined) continue;
    if (EMPLOYEE_REFS.has(f)) {
      const named = cellText(row.values.get(f))!;
      const id = lookup.idOf(named, people);
      if (id === undefined) {
        problems.push({ row: row.row, field: f, message: `no employee has employee_id "${named}"` });
        ok = false;
      } else fields[f] = id;
    } else fields[f] = body[f];
  }
  return ok ? { employee: body.employee, effective_date: body.effective_date, reason: body.reason, fields } : null;
}

class ChangeWithEmployee extends RecordChangeDto {
  @IsRefId() employee: number;
}
