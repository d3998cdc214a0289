import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, LessThan } from 'typeorm';
import { RecordSql, SAMPLE_MANAGER } from '../../common/database/record-sql';
import { RETRY_DEADLOCKS, SET_REPLACEMENT, transaction } from '../../common/database/transaction';
import { Payroll, PayrollChunk, PayrollError, PayrollRunInput, UsedTableVersion } from '../entities/payroll-run.entities';

/** Chunk rows per INSERT: each holds up to PAYROLL_CHUNK_SIZE employee ids as JSON. */
const CHUNKS_PER_INSERT = 20;
/** Employee ids a cleanup statement covers (old revisions' cells are removed window by window). */
const CLEANUP_WINDOW = 2_000;

/** Where a run's chunks stand. */
export interface RunProgress {
  total: number;
  done: number;
  /** Employees of every chunk, and the errors of those done. */
  employees: number;
  errors: number;
}

/**
 * The payroll's state and claim inside a chunk's transaction (a run's or a payslip generation's),
 * read under a shared lock on MariaDB: a new claim, or the last step, waits for the chunk's commit.
 * TypeORM spells the shared lock FOR SHARE, which MariaDB does not know; SQLite's writer holds the
 * whole database.
 */
export async function claimUnderShareLock(
  em: EntityManager,
  payrollId: number,
): Promise<Pick<Payroll, 'status' | 'claim'> | null> {
  if (em.connection.options.type !== 'mysql')
    return em.getRepository(Payroll).findOne({ where: { id: payrollId }, select: { id: true, status: true, claim: true } });
  const rows = await em.query<Array<Pick<Payroll, 'status' | 'claim'>>>(
    'SELECT status, claim FROM payrolls WHERE id = ? LOCK IN SHARE MODE',
    [payrollId],
  );
  return rows[0] ?? null;
}

/** The chunks of payroll runs (issue 70): one row per chunk, written by the run's first step, marked Done in the chunk's transaction. */
@Injectable()
export class PayrollChunksRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The run's chunks: `employees` cut in order into chunks of `size`, all Waiting. */
  @RecordSql(SAMPLE_MANAGER, 1, 2, [1, 2, 3], 2, 4, [])
  async create(
    em: EntityManager,
    payrollId: number,
    revision: number,
    employees: readonly number[],
    size: number,
    columnSetId: number,
    tableVersions: UsedTableVersion[],
  ): Promise<number> {
    const rows: Array<Partial<PayrollChunk>> = [];
    for (let start = 0, chunk = 0; start < employees.length; start += size, chunk++) {
      const ids = employees.slice(start, start + size);
      rows.push({ payrollId, revision, chunk, employees: ids, size: ids.length, columnSetId, tableVersions, status: 'Waiting' });
    }
    for (let i = 0; i < rows.length; i += CHUNKS_PER_INSERT)
      await em
        .createQueryBuilder()
        .insert()
        .into(PayrollChunk)
        .values(rows.slice(i, i + CHUNKS_PER_INSERT))
        .updateEntity(false)
        .execute();
    return rows.length;
  }

  /** The numbers of a run's chunks not written yet (all of them once the run's chunks exist, none before). */
  @RecordSql(1, 2)
  async waiting(payrollId: number, revision: number): Promise<number[]> {
    const rows = await this.ds.getRepository(PayrollChunk).find({
      where: { payrollId, revision, status: 'Waiting' },
      select: { chunk: true },
      order: { chunk: 'ASC' },
    });
    return rows.map((r) => r.chunk);
  }

  /** Whether the run's chunks were written down (its first step got that far). */
  @RecordSql(1, 2)
  exists(payrollId: number, revision: number): Promise<boolean> {
    return this.ds.getRepository(PayrollChunk).exists({ where: { payrollId, revision } });
  }

  @RecordSql(1, 2, 0)
  one(payrollId: number, revision: number, chunk: number): Promise<PayrollChunk | null> {
    return this.ds.getRepository(PayrollChunk).findOne({ where: { payrollId, revision, chunk } });
  }

  /** What every chunk of the run computes with (its first chunk's copy of it), or null before the chunks exist. */
  @RecordSql(1, 2)
  async plan(payrollId: number, revision: number): Promise<Pick<PayrollChunk, 'columnSetId' | 'tableVersions'> | null> {
    return this.ds
      .getRepository(PayrollChunk)
      .findOne({ where: { payrollId, revision, chunk: 0 }, select: { columnSetId: true, tableVersions: true, chunk: true } });
  }

  /**
   * Inside a chunk's transaction, first: the payroll's state and claim, read under a shared lock
   * on MariaDB (a claim to process it again, or the run's last step, waits for the chunk's commit,
   * so no chunk of a superseded claim commits after it), and whether the chunk is written already.
   */
  @RecordSql(SAMPLE_MANAGER, 1, 2, 0)
  async lockForChunk(
    em: EntityManager,
    payrollId: number,
    revision: number,
    chunk: number,
  ): Promise<{ payroll: Pick<Payroll, 'status' | 'claim'> | null; done: boolean }> {
    const payroll = await claimUnderShareLock(em, payrollId);
    const row = await em
      .getRepository(PayrollChunk)
      .findOne({ where: { payrollId, revision, chunk }, select: { chunk: true, status: true } });
    return { payroll, done: row?.status === 'Done' };
  }

  @RecordSql(SAMPLE_MANAGER, 1, 2, 0, 3)
  async markDone(em: EntityManager, payrollId: number, revision: number, chunk: number, errors: number): Promise<void> {
    await em.update(PayrollChunk, { payrollId, revision, chunk }, { status: 'Done', errors });
  }

  /**
   * Raises the payroll's `progress` to `percent` (never lowers it: chunks finish in any order). On
   * MariaDB only when no chunk's transaction holds the payroll's row (SKIP LOCKED): waiting for it
   * would queue every other chunk's shared lock behind this write, one chunk at a time; a later
   * chunk, or the last step, writes it then. The UPDATE finds the row by its key alone: with
   * `status = ?` in its WHERE, MariaDB went through the (status, id) index and waited there for a
   * last step's move (which takes that index first and the row after): a deadlock (2026-12-06).
   */
  @RecordSql({ payrollId: 1, claim: 'c', revision: 2 }, 50)
  async showProgress(
    run: { payrollId: number; claim: string },
    percent: number,
    /** Completing: a payslip generation's chunks (issue 70). */
    state: 'Processing' | 'Completing' = 'Processing',
  ): Promise<void> {
    const mysql = this.ds.options.type === 'mysql';
    await transaction(
      this.ds,
      async (em) => {
        if (mysql) {
          const free = await em.query<unknown[]>('SELECT id FROM payrolls WHERE id = ? FOR UPDATE SKIP LOCKED', [run.payrollId]);
          if (!free.length) return;
        }
        await em.query(
          'UPDATE payrolls SET progress = CASE WHEN progress < ? AND status = ? AND claim = ? THEN ? ELSE progress END WHERE id = ?',
          [percent, state, run.claim, percent, run.payrollId],
        );
      },
      RETRY_DEADLOCKS,
    );
  }

  /** How far the run is: chunks done of all, employees and errors. */
  @RecordSql(1, 2)
  async progress(payrollId: number, revision: number): Promise<RunProgress> {
    const rows = await this.ds
      .getRepository(PayrollChunk)
      .createQueryBuilder('k')
      .select('k.status', 'status')
      .addSelect('COUNT(*)', 'chunks')
      .addSelect('SUM(k.size)', 'employees')
      .addSelect('SUM(k.errors)', 'errors')
      .where('k.payroll_id = :payrollId AND k.revision = :revision', { payrollId, revision })
      .groupBy('k.status')
      .getRawMany<{ status: string; chunks: number | string; employees: number | string; errors: number | string }>();
    const out: RunProgress = { total: 0, done: 0, employees: 0, errors: 0 };
    for (const r of rows) {
      out.total += Number(r.chunks);
      out.employees += Number(r.employees);
      if (r.status === 'Done') {
        out.done += Number(r.chunks);
        out.errors += Number(r.errors);
      }
    }
    return out;
  }

  /**
   * Removes what runs before `revision` left (the payroll's cells, errors and inputs of earlier
   * revisions, and their chunks), once `revision` is the payroll's: window by window of employee
   * ids, each its own short statement, so that a million employees' old cells never make one
   * transaction.
   */
  @RecordSql(1, 2)
  async dropOlder(payrollId: number, revision: number, cells = true): Promise<void> {
    if (cells) await this.dropOlderCells(payrollId, revision);
    await transaction(
      this.ds,
      async (em) => {
        await em.delete(PayrollError, { payrollId, revision: LessThan(revision) });
        await em.delete(PayrollRunInput, { payrollId, revision: LessThan(revision) });
        await em.delete(PayrollChunk, { payrollId, revision: LessThan(revision) });
      },
      SET_REPLACEMENT,
    );
  }

  /**
   * Whether runs before `revision` may have left cells: the payroll had cells (processed before,
   * or cells of a revision), or some earlier claim's chunk wrote (each writes its inputs with its
   * cells). A first run skips the clean-up's pass over its own cells.
   */
  @RecordSql({ id: 1, cellsRevision: 0, processedAt: null }, 2)
  async mayHaveOlderCells(payroll: Pick<Payroll, 'id' | 'cellsRevision' | 'processedAt'>, revision: number): Promise<boolean> {
    if (payroll.cellsRevision !== 0 || payroll.processedAt !== null) return true;
    return this.ds.getRepository(PayrollRunInput).exists({ where: { payrollId: payroll.id, revision: LessThan(revision) } });
  }

  private async dropOlderCells(payrollId: number, revision: number): Promise<void> {
    const q = (name: string) => this.ds.driver.escape(name);
    const [{ top }] = await this.ds.query<Array<{ top: number | string | null }>>(
      `SELECT MAX(${q('employee_id')}) AS ${q('top')} FROM ${q('payroll_cells')} WHERE ${q('payroll_id')} = ?`,
      [payrollId],
    );
    for (let from = 0; from <= Number(top ?? -1); from += CLEANUP_WINDOW)
      await transaction(
        this.ds,
        (em) =>
          em.query(
            `DELETE FROM ${q('payroll_cells')} WHERE ${q('payroll_id')} = ? AND ${q('employee_id')} >= ? AND ${q('employee_id')} < ? AND ${q('revision')} < ?`,
            [payrollId, from, from + CLEANUP_WINDOW, revision],
          ),
        SET_REPLACEMENT,
      );
  }

  /** A finished run's chunks (its last step has made its revision the payroll's, or the payroll failed). */
  @RecordSql(1, 2)
  async dropRun(payrollId: number, revision: number): Promise<void> {
    await this.ds.getRepository(PayrollChunk).delete({ payrollId, revision });
  }
}
