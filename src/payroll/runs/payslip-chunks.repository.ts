import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, Not } from 'typeorm';
import { RecordSql, SAMPLE_MANAGER } from '../../common/database/record-sql';
import { Payroll, PayslipChunk, PayslipFailure } from '../entities/payroll-run.entities';
import { claimUnderShareLock } from './payroll-chunks.repository';

/** Chunk rows per INSERT: each holds up to PAYSLIP_CHUNK_SIZE employee ids as JSON. */
const CHUNKS_PER_INSERT = 50;

/**
 * The chunks of payslip generations (issue 70): one row per chunk of a claim, written by its first
 * step, marked Done (with what could not be made) in the chunk's transaction.
 */
@Injectable()
export class PayslipChunksRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The claim's chunks: `employees` cut in order into chunks of `size`, all Waiting. */
  @RecordSql(SAMPLE_MANAGER, 1, 'c', [1, 2, 3], 2)
  async create(em: EntityManager, payrollId: number, claim: string, employees: readonly number[], size: number): Promise<number> {
    const rows: Array<Partial<PayslipChunk>> = [];
    for (let start = 0, chunk = 0; start < employees.length; start += size, chunk++) {
      const ids = employees.slice(start, start + size);
      rows.push({ payrollId, claim, chunk, employees: ids, size: ids.length, status: 'Waiting', failures: [] });
    }
    for (let i = 0; i < rows.length; i += CHUNKS_PER_INSERT)
      await em
        .createQueryBuilder()
        .insert()
        .into(PayslipChunk)
        .values(rows.slice(i, i + CHUNKS_PER_INSERT))
        .updateEntity(false)
        .execute();
    return rows.length;
  }

  /** Whether the claim's chunks were written down (its first step got that far). */
  @RecordSql(1, 'c')
  exists(payrollId: number, claim: string): Promise<boolean> {
    return this.ds.getRepository(PayslipChunk).exists({ where: { payrollId, claim } });
  }

  /** The numbers of the claim's chunks not written yet. */
  @RecordSql(1, 'c')
  async waiting(payrollId: number, claim: string): Promise<number[]> {
    const rows = await this.ds.getRepository(PayslipChunk).find({
      where: { payrollId, claim, status: 'Waiting' },
      select: { chunk: true },
      order: { chunk: 'ASC' },
    });
    return rows.map((r) => r.chunk);
  }

  @RecordSql(1, 'c', 0)
  one(payrollId: number, claim: string, chunk: number): Promise<PayslipChunk | null> {
    return this.ds.getRepository(PayslipChunk).findOne({ where: { payrollId, claim, chunk } });
  }

  /**
   * Inside a chunk's transaction, first: the payroll's state and claim, read under a shared lock on
   * MariaDB (a new claim, deleting the payslips, or the last step waits for the chunk's commit), and
   * whether the chunk is written already.
   */
  @RecordSql(SAMPLE_MANAGER, 1, 'c', 0)
  async lockForChunk(
    em: EntityManager,
    payrollId: number,
    claim: string,
    chunk: number,
  ): Promise<{ payroll: Pick<Payroll, 'status' | 'claim'> | null; done: boolean }> {
    const payroll = await claimUnderShareLock(em, payrollId);
    const row = await em
      .getRepository(PayslipChunk)
      .findOne({ where: { payrollId, claim, chunk }, select: { chunk: true, status: true } });
    return { payroll, done: row?.status === 'Done' };
  }

  @RecordSql(SAMPLE_MANAGER, 1, 'c', 0, [])
  async markDone(em: EntityManager, payrollId: number, claim: string, chunk: number, failures: PayslipFailure[]): Promise<void> {
    await em.update(PayslipChunk, { payrollId, claim, chunk }, { status: 'Done', failures });
  }

  /** How far the claim is: chunks done of all. */
  @RecordSql(1, 'c')
  async progress(payrollId: number, claim: string): Promise<{ total: number; done: number }> {
    const rows = await this.ds
      .getRepository(PayslipChunk)
      .createQueryBuilder('k')
      .select('k.status', 'status')
      .addSelect('COUNT(*)', 'chunks')
      .where('k.payroll_id = :payrollId AND k.claim = :claim', { payrollId, claim })
      .groupBy('k.status')
      .getRawMany<{ status: string; chunks: number | string }>();
    let [total, done] = [0, 0];
    for (const r of rows) {
      total += Number(r.chunks);
      if (r.status === 'Done') done += Number(r.chunks);
    }
    return { total, done };
  }

  /** What the claim's chunks could not make, chunk by chunk, and how many employees they hold. */
  @RecordSql(1, 'c')
  async outcome(payrollId: number, claim: string): Promise<{ employees: number; failures: PayslipFailure[] }> {
    const rows = await this.ds.getRepository(PayslipChunk).find({
      where: { payrollId, claim },
      select: { chunk: true, size: true, failures: true },
      order: { chunk: 'ASC' },
    });
    return { employees: rows.reduce((n, r) => n + r.size, 0), failures: rows.flatMap((r) => r.failures) };
  }

  /** The payroll's chunks of other claims than `claim`: earlier generations'. */
  @RecordSql(1, 'c')
  async dropOthers(payrollId: number, claim: string): Promise<void> {
    await this.ds.getRepository(PayslipChunk).delete({ payrollId, claim: Not(claim) });
  }

  /**
   * The chunks of the claim's generation, once it has ended (`em`: in the transaction that ends it).
   * Only its own: a generation started since has chunks of its own claim, which are not its to drop.
   */
  @RecordSql(SAMPLE_MANAGER, 1, 'c')
  async dropClaim(em: EntityManager, payrollId: number, claim: string): Promise<void> {
    await em.getRepository(PayslipChunk).delete({ payrollId, claim });
  }
}
