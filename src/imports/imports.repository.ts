import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull, LessThan, Not } from 'typeorm';
import { RecordSql, SAMPLE_MANAGER } from '../common/database/record-sql';
import { timeSlices } from '../common/async/time-slices';
import { RowError } from '../common/import/import-kind';
import { ImportErrorRecord, ImportRecord, ImportStatus } from './entities/import.entities';

/** Statements per multi-row INSERT of errors (6 values a row). */
const ERROR_CHUNK = 500;

/** The running states: an import in one of them has (or had) a job working on it. */
export const RUNNING: readonly ImportStatus[] = ['Queued', 'Validating', 'Importing'];

/** The imports and their errors. */
@Injectable()
export class ImportsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Writes row errors in multi-row INSERTs, with `em` (the batch's transaction, or the finishing one). */
  @RecordSql(SAMPLE_MANAGER, 1, [{ row: 1, column: 'birthday', field: 'birthday', message: 'must be a date' }])
  async insertErrors(em: EntityManager, importId: number, errors: readonly RowError[]): Promise<void> {
    // On SQLite each insert settles in a microtask: 10 000 errors held the event loop 270 ms in one
    // stretch without a pause between chunks.
    const slices = timeSlices();
    for (let i = 0; i < errors.length; i += ERROR_CHUNK) {
      if (slices.due()) await slices.pause();
      await em.insert(
        ImportErrorRecord,
        errors
          .slice(i, i + ERROR_CHUNK)
          .map((e) => ({ importId, row: e.row, column: e.column, field: e.field, message: e.message })),
      );
    }
  }

  @RecordSql(SAMPLE_MANAGER, 1)
  async deleteErrors(em: EntityManager, importId: number): Promise<void> {
    await em.delete(ImportErrorRecord, { importId });
  }

  /** Validated dry runs finished before `before` whose file is still stored. */
  @RecordSql(new Date('2026-01-01T00:00:00Z'))
  staleDryRuns(before: Date): Promise<ImportRecord[]> {
    return this.ds.getRepository(ImportRecord).find({
      where: { status: 'Validated', fileKey: Not(IsNull()), finishedAt: LessThan(before) },
      order: { id: 'ASC' },
      take: 1000,
    });
  }

  /** Imports in a running state untouched since `before` (their attempt died, or never started). */
  @RecordSql(new Date('2026-01-01T00:00:00Z'))
  stalled(before: Date): Promise<ImportRecord[]> {
    return this.ds.getRepository(ImportRecord).find({
      where: { status: In([...RUNNING]), updatedAt: LessThan(before) },
      order: { id: 'ASC' },
      take: 100,
    });
  }
}
