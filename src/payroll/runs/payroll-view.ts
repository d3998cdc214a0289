import { PayrollDto, SavePayrollDto } from '../dto/payroll-run.dto';
import { Payroll } from '../entities/payroll-run.entities';

/** A payroll as the API shows it. */
export function toPayrollDto(p: Payroll): PayrollDto {
  return {
    id: p.id,
    name: p.name,
    pay_period: p.payPeriod,
    department: p.departmentId,
    deduction_group: p.deductionGroupId,
    date_start: p.dateStart,
    date_end: p.dateEnd,
    proration: p.proration,
    columns: p.columns,
    payslip_template: p.payslipTemplateId,
    net_column: p.netColumnId,
    status: p.status,
    progress: p.progress,
    error: p.error,
    processed_at: p.processedAt ? p.processedAt.toISOString() : null,
    completed_at: p.completedAt ? p.completedAt.toISOString() : null,
  };
}

/** A save of a Completed payroll that changes nothing but its net column (set after the fact for its bank file). */
export function onlyNetColumnOfCompleted(p: Payroll, dto: SavePayrollDto): boolean {
  if (p.status !== 'Completed') return false;
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const stored = toPayrollDto(p) as unknown as Record<string, unknown>;
  const sent: Record<string, unknown> = { ...dto, columns: [...new Set(dto.columns)] };
  return Object.entries(sent).every(([k, v]) => k === 'id' || k === 'net_column' || same(v, stored[k]));
}
