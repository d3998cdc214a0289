import { EmployeeScope } from '../core/employee-access.service';
import { EmploymentChange } from '../entities/employment-history.entities';
import { ChangeFieldsDto, EmploymentChangeDto, SegmentDto } from './dto/employment-history.dto';
import { DATED_FIELDS, DatedValues, ExtraValues, SalaryLine, Segment } from './employment-history';
import { storedFields } from './employment-history.writer';

/** Employment history's responses and the rules its routes share (EmploymentHistoryService). */

export function toChangeDto(c: EmploymentChange, salaries: boolean, extra: ExtraValues): EmploymentChangeDto {
  return {
    id: c.id,
    employee: c.employeeId,
    effective_date: c.effectiveDate,
    reason: c.reason,
    fields: { ...storedFields(c.fields).fields, ...extra },
    salary: salaries && c.salary !== null ? (JSON.parse(c.salary) as SalaryLine[]) : null,
    status: c.status,
    recorded_at: c.recordedAt.toISOString(),
    recorded_by: c.recordedBy,
    corrects: c.corrects,
  };
}

export function toSegmentDto(s: Segment, salaries: boolean, extra: ExtraValues): SegmentDto {
  return {
    effective_from: s.effectiveFrom,
    effective_to: s.effectiveTo,
    ...s.values,
    ...extra,
    salary: salaries ? s.salary : null,
    change: s.change,
  };
}

/** Whether a Restricted Admin's departments hold the segment's department (any other scope: yes). */
export function inDepartments(scope: EmployeeScope, s: Segment): boolean {
  return scope.kind !== 'departments' || (s.values.department !== null && scope.departmentIds.includes(s.values.department));
}

/** The segment in force on `day`, or null before the first. */
export function segmentOnDay(segments: Segment[], day: string): Segment | null {
  return segments.find((s) => s.effectiveFrom <= day && (s.effectiveTo === null || s.effectiveTo >= day)) ?? null;
}

/** The dated fields a DTO sets (those it names, null included). */
export function setFields(dto: ChangeFieldsDto | undefined): Partial<DatedValues> {
  const out: Partial<DatedValues> = {};
  if (!dto) return out;
  for (const f of DATED_FIELDS) if (dto[f] !== undefined) out[f] = dto[f];
  return out;
}
