import { Injectable } from '@nestjs/common';
import { CURRENT_CELLS } from './current-cells';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { DriverReader } from '../../common/database/driver-reader';
import { RecordSql, RecordSqlAs } from '../../common/database/record-sql';
import { isUniqueViolation } from '../../common/errors/db-errors';
import { PayrollColumnDto } from '../dto/payroll-config.dto';
import { PayrollColumnSet, PayrollRunInput } from '../entities/payroll-run.entities';
import { DiffCell } from '../engine/stored-inputs';
import { columnSetHash } from './run-inputs';
import { EmployeeInputs } from '../engine/stored-inputs';

/** Input rows per INSERT: each holds one employee's JSON (a few hundred bytes to a few KiB). */
const INPUTS_PER_INSERT = 500;

/** The stored inputs of payroll runs (issue 32): column snapshots and per-employee inputs. */
@Injectable()
export class PayrollRunInputsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * The snapshot of these column definitions: the existing one with the same hash, or a new one.
   * Outside the run's transaction: a snapshot is shared and never changes, so one left by a failed
   * run costs nothing, and two runs saving the same one at once settle on the first.
   */
  @RecordSql([{ id: 1, name: 'Basic', variable: 'basic' }])
  async columnSetOf(columns: PayrollColumnDto[]): Promise<number> {
    const hash = columnSetHash(columns);
    const repo = this.ds.getRepository(PayrollColumnSet);
    const found = await repo.findOne({ where: { hash }, select: { id: true } });
    if (found) return found.id;
    try {
      return (await repo.insert({ hash, columns })).identifiers[0].id as number;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      return (await repo.findOneOrFail({ where: { hash }, select: { id: true } })).id;
    }
  }

  async columnSet(id: number): Promise<PayrollColumnDto[] | null> {
    return (await this.ds.getRepository(PayrollColumnSet).findOne({ where: { id } }))?.columns ?? null;
  }

  /** Adds or replaces some employees' inputs of a revision (a grid edit that read them live). */
  async upsert(
    em: EntityManager,
    payrollId: number,
    revision: number,
    inputs: ReadonlyMap<number, EmployeeInputs>,
  ): Promise<void> {
    if (!inputs.size) return;
    await em.delete(PayrollRunInput, { payrollId, revision, employeeId: In([...inputs.keys()]) });
    await this.insert(em, payrollId, revision, inputs);
  }

  /**
   * Adds employees' inputs to a revision (a chunk's, which writes them once). Plain multi-row
   * INSERTs: the query builder's per-row metadata work cost more than the writes.
   */
  async insert(
    em: EntityManager,
    payrollId: number,
    revision: number,
    inputs: ReadonlyMap<number, EmployeeInputs>,
  ): Promise<void> {
    const rows = [...inputs];
    for (let i = 0; i < rows.length; i += INPUTS_PER_INSERT) {
      const chunk = rows.slice(i, i + INPUTS_PER_INSERT);
      await em.query(
        `INSERT INTO payroll_run_inputs (payroll_id, revision, employee_id, inputs) VALUES ${chunk.map(() => '(?, ?, ?, ?)').join(', ')}`,
        chunk.flatMap(([employeeId, input]) => [payrollId, revision, employeeId, JSON.stringify(input)]),
      );
    }
  }

  /**
   * Some employees' inputs of a revision (all of them without `employeeIds`), 1 000 a query, off
   * the driver (an entity per row cost as much as its JSON: a diff reads a run's in chunks).
   */
  @RecordSql(1, 1, [1, 2])
  @RecordSqlAs('whole run', 1, 1)
  async inputsOf(payrollId: number, revision: number, employeeIds?: number[]): Promise<Map<number, EmployeeInputs>> {
    if (employeeIds) return (await this.inputsOfRuns([{ id: payrollId, revision }], employeeIds)).get(payrollId)!;
    const out = new Map<number, EmployeeInputs>();
    const rows = await DriverReader.of(this.ds).arrays(
      'SELECT employee_id, inputs FROM payroll_run_inputs WHERE payroll_id = :id AND revision = :revision',
      { id: payrollId, revision },
    );
    for (const [employee, json] of rows as Array<[number | string, string]>)
      out.set(Number(employee), JSON.parse(json) as EmployeeInputs);
    return out;
  }

  /**
   * Some employees' inputs of several runs' revisions (arrears read a year of runs): payroll id →
   * employee → inputs. Off the driver, 1 000 employees a query: TypeORM's entities cost as much
   * as the JSON they hold.
   */
  @RecordSql([{ id: 1, revision: 2 }], [1, 2])
  async inputsOfRuns(
    runs: ReadonlyArray<{ id: number; revision: number }>,
    employeeIds: number[],
  ): Promise<Map<number, Map<number, EmployeeInputs>>> {
    const out = new Map<number, Map<number, EmployeeInputs>>();
    const reader = DriverReader.of(this.ds);
    for (const run of runs) {
      const inputs = new Map<number, EmployeeInputs>();
      out.set(run.id, inputs);
      for (let i = 0; i < employeeIds.length; i += 1000) {
        const rows = await reader.arrays(
          'SELECT employee_id, inputs FROM payroll_run_inputs WHERE payroll_id = :id AND revision = :revision AND employee_id IN (:...ids)',
          { id: run.id, revision: run.revision, ids: employeeIds.slice(i, i + 1000) },
        );
        for (const [employee, json] of rows as Array<[number | string, string]>)
          inputs.set(Number(employee), JSON.parse(json) as EmployeeInputs);
      }
    }
    return out;
  }

  /**
   * Some employees' cells of a payroll in some columns, and their edited cells in any column
   * (arrears recompute with the edits): a seek per employee on the cells' key, 1 000 a query.
   */
  @RecordSql(1, [1, 2], [3])
  async cellsOf(payrollId: number, employeeIds: number[], columnIds: number[]): Promise<Map<number, Map<number, DiffCell>>> {
    const out = new Map<number, Map<number, DiffCell>>();
    for (let i = 0; i < employeeIds.length; i += 1000)
      cellsInto(
        out,
        await DriverReader.of(this.ds).arrays(
          `SELECT c.employee_id, c.column_id, c.value, c.edited FROM ${CURRENT_CELLS} WHERE c.payroll_id = :id ` +
            'AND c.employee_id IN (:...ids) AND (c.edited = :edited OR c.column_id IN (:...columns))',
          { id: payrollId, ids: employeeIds.slice(i, i + 1000), edited: true, columns: columnIds },
        ),
      );
    return out;
  }

  /** The employees with cells in any of these payrolls (a diff's rows), ascending. */
  @RecordSql([1, 2])
  async cellEmployees(payrollIds: number[]): Promise<number[]> {
    const rows = await DriverReader.of(this.ds).arrays(
      `SELECT DISTINCT c.employee_id FROM ${CURRENT_CELLS} WHERE c.payroll_id IN (:...ids) ORDER BY c.employee_id`,
      { ids: payrollIds },
    );
    return (rows as Array<[number | string]>).map(([id]) => Number(id));
  }

  /** Every cell of these employees in a payroll (a diff's chunk), as allCells(). */
  @RecordSql(1, [1, 2])
  async cellsOfEmployees(payrollId: number, employeeIds: number[]): Promise<Map<number, Map<number, DiffCell>>> {
    const out = new Map<number, Map<number, DiffCell>>();
    for (let i = 0; i < employeeIds.length; i += 1000)
      cellsInto(
        out,
        await DriverReader.of(this.ds).arrays(
          `SELECT c.employee_id, c.column_id, c.value, c.edited FROM ${CURRENT_CELLS} WHERE c.payroll_id = :id AND c.employee_id IN (:...ids)`,
          { id: payrollId, ids: employeeIds.slice(i, i + 1000) },
        ),
      );
    return out;
  }

  /** Every cell of a payroll (a diff reads two whole runs): employee → column → value and edited, as arrays off the driver. */
  @RecordSql(1)
  async allCells(payrollId: number): Promise<Map<number, Map<number, DiffCell>>> {
    const rows = await DriverReader.of(this.ds).arrays(
      `SELECT c.employee_id, c.column_id, c.value, c.edited FROM ${CURRENT_CELLS} WHERE c.payroll_id = :id`,
      { id: payrollId },
    );
    return cellsInto(new Map(), rows);
  }
}

/**
 * Cells as the driver gives them ([employee, column, value, edited], numbers maybe as text) into
 * employee → column → cell, as read (no row object per cell: a diff reads 30 000 a chunk).
 */
function cellsInto(out: Map<number, Map<number, DiffCell>>, rows: unknown[][]): Map<number, Map<number, DiffCell>> {
  for (const [employee, column, value, edited] of rows as Array<
    [number | string, number | string, string | number | null, number | boolean]
  >) {
    const e = Number(employee);
    let row = out.get(e);
    if (!row) out.set(e, (row = new Map<number, DiffCell>()));
    row.set(Number(column), { value: value === null ? null : String(value), edited: Boolean(Number(edited)) });
  }
  return out;
}
