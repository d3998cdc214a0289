import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { EmployeesRepository } from '../../employees/core/employees.repository';
import { ReferenceService } from '../../reference/reference.service';
import { COMPANY_LOGO, COMPANY_NAME } from '../../settings/settings.registry';
import { SettingsService } from '../../settings/settings.service';
import { PayrollDataDto } from '../dto/payroll-run.dto';
import { PayFrequency } from '../entities/payroll-config.entities';
import { Payroll } from '../entities/payroll-run.entities';
import { PayrollGridService } from '../runs/payroll-grid.service';
import { formerEmployeeContext, PayslipContextDto, PayslipEmployeeContextDto } from '../dto/payslip-context';

/** The company as templates see it: its name and its logo (a data: URI, or null). */
export async function companyContext(settings: SettingsService): Promise<PayslipContextDto['company']> {
  return { name: await settings.get(COMPANY_NAME), logo: (await settings.get(COMPANY_LOGO)) || null };
}

/** What a payslip template renders (PayslipContextDto), for a page of a payroll's grid: the payslip job's and the preview's. */
@Injectable()
export class PayslipContextsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly employees: EmployeesRepository,
    private readonly reference: ReferenceService,
    private readonly settings: SettingsService,
    private readonly grid: PayrollGridService,
  ) {}

  /** The render contexts of a page of the payroll's grid, a row each: one query for the page's employees. */
  async of(payroll: Payroll, grid: Pick<PayrollDataDto, 'columns' | 'rows'>): Promise<PayslipContextDto[]> {
    const employees = await this.employeeContexts(grid.rows.map((r) => r.employee.id));
    const company = await companyContext(this.settings);
    const payrollContext = { id: payroll.id, name: payroll.name, date_start: payroll.dateStart, date_end: payroll.dateEnd };
    return grid.rows.map((row) => ({
      employee: employees.get(row.employee.id) ?? formerEmployeeContext(row.employee.id),
      payroll: payrollContext,
      company,
      columns: grid.columns.map((c) => ({ name: c.name, value: row.values[String(c.id)] })),
    }));
  }

  /** The template's view of employees: names, references by name, and the payroll employee's currency and frequency. */
  private async employeeContexts(ids: number[]): Promise<Map<number, PayslipEmployeeContextDto>> {
    const fields = [...(await this.employees.payslipFieldsOf(ids)).values()];
    const [jobTitles, departments, payGrades] = await Promise.all([
      this.reference.namesOf(
        'job-titles',
        fields.map((e) => e.job_title),
      ),
      this.reference.namesOf(
        'departments',
        fields.map((e) => e.department),
      ),
      this.reference.namesOf(
        'pay-grades',
        fields.map((e) => e.pay_grade),
      ),
    ]);
    const payrollEmployees = await this.grid.payrollEmployeesOf(ids);
    const frequencies = new Map((await this.dataSource.getRepository(PayFrequency).find()).map((f) => [f.id, f.name]));
    const name = (names: Map<number, string>, id: number | null) => (id === null ? null : (names.get(id) ?? null));
    return new Map(
      fields.map((e) => {
        const p = payrollEmployees.get(e.id);
        const context: PayslipEmployeeContextDto = {
          ...e,
          name: `${e.first_name} ${e.last_name}`,
          job_title: name(jobTitles, e.job_title),
          department: name(departments, e.department),
          pay_grade: name(payGrades, e.pay_grade),
          currency: p?.currency ?? null,
          pay_frequency: p ? name(frequencies, p.payFrequencyId) : null,
        };
        return [e.id, context];
      }),
    );
  }
}
