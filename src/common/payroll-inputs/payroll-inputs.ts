import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Catalogue } from '../declarations/catalogue';
import type { ErrorDetail } from '../errors/domain.exception';
import { Dec } from '../money/dec';

/*
 * Payroll inputs (a payroll column's `calculation_hook`, docs/api/decisions.md §10): values a
 * payroll reads from other modules' data over its period (hours worked, approved leave days, ...).
 * Each module declares its own beside the data, in its `*.payroll-inputs.ts`: the code, name,
 * arguments and source when the file loads (`declarePayrollInput`), and an injectable loader that
 * registers itself with `PayrollInputs`. Payroll lists, validates, loads and explains them from here
 * and names no other module.
 */

/** An argument an input takes (`calculation_hook_args`). */
export interface PayrollInputArgument {
  name: string;
  type: 'number' | 'integer' | 'string';
  required: boolean;
  description: string;
}

/** What `GET /payroll_config/calculation-hooks` shows of an input. */
export interface PayrollInputDescription {
  code: string;
  name: string;
  description: string;
  args: PayrollInputArgument[];
}

export interface PayrollInputDeclaration extends PayrollInputDescription {
  /** Where its values come from, as explain and diff name it (`attendance`, `leave_requests`, ...): the kind of the records' ids. */
  source: string;
  /** Its place in the list (the IceHrm set's order first). */
  position: number;
  /**
   * An employee without any part in the period: `zero` (a data input: nothing counted) or `none`
   * (no value: the column's default applies).
   */
  absent: 'zero' | 'none';
  /** Computed by the payroll run itself from its earlier runs (arrears): no loader. */
  byRun?: true;
  /** Problems of its arguments beyond their names and types (a field name that does not exist). */
  argumentProblems?: (args: Record<string, unknown>) => ErrorDetail[];
}

const inputs = new Catalogue<PayrollInputDeclaration>('payroll input');
const sources = new Catalogue<true>('payroll input source');

/** Every input's source, in name order (the explain document's enumeration). */
export const PAYROLL_INPUT_SOURCES: string[] = sources.names;

/** Declares a payroll input (when its module's file loads) and returns its code. */
export function declarePayrollInput(declaration: PayrollInputDeclaration): string {
  inputs.declare(declaration.code, declaration);
  sources.declare(declaration.source, true);
  return declaration.code;
}

/** Every declared input, in list order. */
export function payrollInputs(): PayrollInputDeclaration[] {
  return inputs.all().sort((a, b) => a.position - b.position || a.code.localeCompare(b.code));
}

export function findPayrollInput(code: string): PayrollInputDeclaration | undefined {
  return inputs.get(code);
}

/** What a list or an error shows of an input. */
export function describePayrollInput(d: PayrollInputDeclaration): PayrollInputDescription {
  return { code: d.code, name: d.name, description: d.description, args: d.args };
}

/** One share of an employee's value: an amount and the records (ids of the input's source) it came from. */
export interface PayrollInputPart {
  employee: number;
  amount: Dec | string | number;
  records?: readonly number[];
}

export interface PayrollInputRequest {
  employeeIds: number[];
  /** The period's days, both included. */
  from: string;
  to: string;
  args: Record<string, string | number>;
  /**
   * Shared by the loads of one payroll's inputs: what several inputs read once (the attendance of
   * the period for hours worked, regular and overtime hours).
   */
  once: <T>(key: string, load: () => Promise<T>) => Promise<T>;
}

/**
 * An input whose records are paid once (reimbursements): payroll tells its module which records a
 * payroll paid when it completes, and that they are unpaid when its payslips are deleted, each in
 * payroll's own transaction, so that a record is paid by one payroll or none.
 */
export interface PayrollInputSettlement {
  /**
   * In the transaction that completes the payroll: `records` (ids of the input's source) are what
   * its cells paid. Answers a sentence when some can no longer be paid (paid, cancelled or changed
   * since the payroll read them): the payroll is not completed, and stays Processed with it as its error.
   */
  settle(em: EntityManager, payrollId: number, records: number[]): Promise<string | null>;
  /** In the transaction that deletes the payroll's payslips: what it paid is unpaid again. */
  unsettle(em: EntityManager, payrollId: number): Promise<void>;
}

/** Loads one input's parts for many employees in a few queries. */
export interface PayrollInputLoader {
  readonly code: string;
  load(request: PayrollInputRequest): Promise<Iterable<PayrollInputPart>>;
  /** Records paid once: see PayrollInputSettlement. */
  readonly settlement?: PayrollInputSettlement;
  /**
   * The accounts its records debit in the journal, when they differ by record (a reimbursement's
   * items by category): record → its amounts by account, in the currency of the record's value.
   * What a cell holds beyond them debits the column's own account.
   */
  debitAccounts?(records: number[]): Promise<Map<number, Array<{ account: string; amount: string }>>>;
}

/** The loaders, registered by their modules' providers when the application is built. */
@Injectable()
export class PayrollInputs implements OnApplicationBootstrap {
  private readonly loaders = new Map<string, PayrollInputLoader>();

  register(loader: PayrollInputLoader): void {
    const declared = inputs.get(loader.code);
    if (!declared) throw new Error(`payroll input ${loader.code} is not declared (declarePayrollInput)`);
    if (declared.byRun) throw new Error(`payroll input ${loader.code} is computed by the run: it has no loader`);
    this.loaders.set(loader.code, loader);
  }

  loader(code: string): PayrollInputLoader | undefined {
    return this.loaders.get(code);
  }

  /** The loaders whose records are paid once (PayrollInputSettlement). */
  settling(): PayrollInputLoader[] {
    return [...this.loaders.values()].filter((l) => l.settlement);
  }

  /** A declared input whose module registered no loader would give no value, silently: refused at boot. */
  onApplicationBootstrap(): void {
    const missing = inputs.all().filter((d) => !d.byRun && !this.loaders.has(d.code));
    if (missing.length) throw new Error(`payroll inputs declared without a loader: ${missing.map((d) => d.code).join(', ')}`);
  }
}
