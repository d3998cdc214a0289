import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { RecordSql, SAMPLE_MANAGER } from '../common/database/record-sql';
import { isUniqueViolation } from '../common/errors/db-errors';
import { PayrollColumnDto } from './dto/payroll-config.dto';
import { PayrollColumnSet, PayrollRunInput } from './entities/payroll-run.entities';
import { columnSetHash, EmployeeInputs } from './run-inputs';

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

  /** Replaces a run's inputs (in the run's transaction, which writes its cells). */
  @RecordSql(SAMPLE_MANAGER, 1, new Map([[1, { salary: { 1: '100.00' } }]]))
  async replace(em: EntityManager, payrollId: number, inputs: ReadonlyMap<number, EmployeeInputs>): Promise<void> {
    await em.delete(PayrollRunInput, { payrollId });
    await this.insert(em, payrollId, inputs);
  }

  /** Adds or replaces some employees' inputs (a grid edit that computed them from live inputs). */
  async upsert(em: EntityManager, payrollId: number, inputs: ReadonlyMap<number, EmployeeInputs>): Promise<void> {
    if (!inputs.size) return;
    await em.delete(PayrollRunInput, { payrollId, employeeId: In([...inputs.keys()]) });
    await this.insert(em, payrollId, inputs);
  }

  private async insert(em: EntityManager, payrollId: number, inputs: ReadonlyMap<number, EmployeeInputs>): Promise<void> {
    const rows = [...inputs].map(([employeeId, i]) => ({ payrollId, employeeId, inputs: i }));
    for (let i = 0; i < rows.length; i += INPUTS_PER_INSERT)
      await em
        .createQueryBuilder()
        .insert()
        .into(PayrollRunInput)
        .values(rows.slice(i, i + INPUTS_PER_INSERT))
        .execute();
  }

  /** Some employees' inputs to a run (all of them without `employeeIds`), 1 000 a query. */
  @RecordSql(1, [1, 2])
  async inputsOf(payrollId: number, employeeIds?: number[]): Promise<Map<number, EmployeeInputs>> {
    const out = new Map<number, EmployeeInputs>();
    const repo = this.ds.getRepository(PayrollRunInput);
    if (!employeeIds) {
      for (const r of await repo.find({ where: { payrollId } })) out.set(r.employeeId, r.inputs);
      return out;
    }
    for (let i = 0; i < employeeIds.length; i += 1000)
      for (const r of await repo.find({ where: { payrollId, employeeId: In(employeeIds.slice(i, i + 1000)) } }))
        out.set(r.employeeId, r.inputs);
    return out;
  }
}
