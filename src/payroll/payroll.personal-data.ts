import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { PersonalData } from '../common/privacy/personal-data';
import { anyOf, SubjectExport } from '../common/privacy/subject-export';
import { EmployeeSalary, PayrollColumn, PayrollEmployee } from './entities/payroll-config.entities';
import { Payroll, PayrollCell } from './entities/payroll-run.entities';

/**
 * What payroll keeps of a person, in its subject-access export (issue 69): its payroll record (pay
 * frequency, currency), its salary components and every cell the payrolls computed for it, with
 * the payrolls and columns they belong to. Payroll results stay after anonymisation: they name
 * nobody once the names are gone.
 */
@Injectable()
export class PayrollPersonalData {
  constructor(registry: PersonalData) {
    registry.register({ name: 'payroll', order: 58, export: (em, employeeId, out) => this.export(em, employeeId, out) });
  }

  private async export(em: EntityManager, employeeId: number, out: SubjectExport): Promise<void> {
    // The cells by (payroll, employee): the primary key's prefix for each payroll, never a scan of every cell.
    const payrolls = (await em.getRepository(Payroll).find({ select: { id: true }, order: { id: 'ASC' } })).map((p) => p.id);
    const cells = { payrollId: anyOf(payrolls), employeeId };
    const paid = (await em.getRepository(PayrollCell).find({ where: cells, select: { payrollId: true } })).map(
      (c) => c.payrollId,
    );
    await out.lists(
      'payroll.json',
      'the payroll record, salary components, and the cells of each payroll that paid the employee (with those payrolls and their columns)',
      [
        { name: 'payroll_employees', entity: PayrollEmployee, where: { employeeId } },
        { name: 'salary_components', entity: EmployeeSalary, where: { employeeId } },
        { name: 'payrolls', entity: Payroll, where: { id: anyOf([...new Set(paid)]) }, omit: ['claim', 'error'] },
        { name: 'columns', entity: PayrollColumn, where: {}, omit: ['script', 'calculation_hook_args'] },
        { name: 'cells', entity: PayrollCell, where: cells },
      ],
    );
  }
}
