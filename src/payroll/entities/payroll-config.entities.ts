import { DEFAULT_PRORATION, ProrationRule } from '../engine/proration';
import type { EmployeeFormulaField } from '../formula/formula';
import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { DECIMAL_TEXT_COLUMN } from '../../common/money/money';

export const COMPONENT_TYPES = ['Earning', 'Deduction', 'Benefit', 'Reimbursement'] as const;
export type ComponentType = (typeof COMPONENT_TYPES)[number];

@Entity('pay_frequencies')
export class PayFrequency {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ type: 'varchar', length: 30 }) name: string;
  /** How its payrolls prorate salaries changed within a period (issue 44). */
  @Column({ type: 'varchar', length: 14, default: DEFAULT_PRORATION }) proration: ProrationRule;
}

@Entity('deduction_groups')
export class DeductionGroup {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ type: 'varchar', length: 100 }) name: string;
  @Column({ type: 'varchar', length: 500, nullable: true }) description: string | null;
}

@Entity('salary_components')
export class SalaryComponent {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ type: 'varchar', length: 100 }) name: string;
  @Column({ name: 'component_type', type: 'varchar', length: 20 }) componentType: ComponentType;
  @Column({ type: 'varchar', length: 500, nullable: true }) details: string | null;
}

@Entity('employee_salaries')
export class EmployeeSalary {
  @PrimaryColumn({ name: 'employee_id', type: 'integer' }) employeeId: number;
  @PrimaryColumn({ name: 'component_id', type: 'integer' }) componentId: number;
  @Column({ type: 'decimal', precision: 14, scale: 3, transformer: DECIMAL_TEXT_COLUMN }) amount: string;
}

@Entity('payroll_employees')
export class PayrollEmployee {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'employee_id', type: 'integer' }) employeeId: number;
  @Column({ name: 'pay_frequency_id', type: 'integer' }) payFrequencyId: number;
  /** ISO 4217 code. */
  @Column({ type: 'varchar', length: 3 }) currency: string;
  @Column({ name: 'deduction_group_id', type: 'integer', nullable: true }) deductionGroupId: number | null;
}

@Entity('payroll_columns')
export class PayrollColumn {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ type: 'varchar', length: 100 }) name: string;
  /** How scripts refer to the column: letters, digits and _, unique. */
  @Column({ type: 'varchar', length: 64 }) variable: string;
  /** 1..n without gaps, kept dense by the service. */
  @Column({ type: 'integer' }) colorder: number;
  @Column({ type: 'boolean', default: true }) enabled: boolean;
  @Column({ type: 'boolean', default: false }) editable: boolean;
  @Column({ name: 'default_value', type: 'decimal', precision: 14, scale: 3, nullable: true, transformer: DECIMAL_TEXT_COLUMN })
  defaultValue: string | null;
  @Column({ name: 'salary_components', type: 'simple-json' }) salaryComponents: number[];
  @Column({ name: 'add_columns', type: 'simple-json' }) addColumns: number[];
  @Column({ name: 'sub_columns', type: 'simple-json' }) subColumns: number[];
  @Column({ name: 'calculation_hook', type: 'varchar', length: 40, nullable: true }) calculationHook: string | null;
  @Column({ name: 'calculation_hook_args', type: 'simple-json' }) calculationHookArgs: Record<string, string | number>;
  @Column({ type: 'text', nullable: true }) script: string | null;
  @Column({ name: 'deduction_group_id', type: 'integer', nullable: true }) deductionGroupId: number | null;
}

/** A payroll test's employee (docs/api/decisions.md §18): salary amounts by component id, hook values by hook code, formula fields. */
export interface PayrollTestEmployee {
  salary: Record<string, string>;
  hooks: Record<string, string>;
  fields: Partial<Record<EmployeeFormulaField, number | null>>;
}

/** A payroll test (docs/api/decisions.md §18): an employee's inputs and the amounts the columns must give them. */
@Entity('payroll_tests')
export class PayrollTest {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ type: 'varchar', length: 100 }) name: string;
  /** {salary: {component id: amount}, hooks: {hook code: value}, fields: {employee field: number}}. */
  @Column({ type: 'simple-json' }) employee: PayrollTestEmployee;
  /** Column variable → amount. */
  @Column({ type: 'simple-json' }) expected: Record<string, string>;
}

export const TABLE_KINDS = ['brackets', 'lookup'] as const;
export type TableKind = (typeof TABLE_KINDS)[number];

/** A payroll table (issue 44, docs/api/decisions.md §20): tax brackets or a lookup, by name, in dated versions. */
@Entity('payroll_tables')
export class PayrollTable {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ type: 'varchar', length: 100 }) name: string;
  @Column({ type: 'varchar', length: 10 }) kind: TableKind;
}

/** A version of a payroll table in force from `effectiveFrom` until the next one. */
@Entity('payroll_table_versions')
export class PayrollTableVersion {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'table_id', type: 'integer' }) tableId: number;
  @Column({ name: 'effective_from', type: 'date' }) effectiveFrom: string;
  /** JSON: brackets [{from, to, rate, fixed}] or lookup [{key, value}], amounts as decimal strings. */
  @Column({ type: 'simple-json' }) rows: Array<Record<string, string | null>>;
}

export const PAYROLL_CONFIG_ENTITIES = [
  PayrollTable,
  PayrollTableVersion,
  PayrollTest,
  PayFrequency,
  DeductionGroup,
  SalaryComponent,
  EmployeeSalary,
  PayrollEmployee,
  PayrollColumn,
];
