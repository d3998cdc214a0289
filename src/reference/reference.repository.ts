import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { RecordSql } from '../common/database/record-sql';
import { DriverReader } from '../common/database/driver-reader';
import { Nationality } from './entities/reference.entities';

/** The reference data's queries beyond find (issue 26): the department tree, a nationality by name ignoring case. */
@Injectable()
export class ReferenceRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @InjectRepository(Nationality) private readonly nationalities: Repository<Nationality>,
  ) {}

  @RecordSql('French')
  nationalityByName(name: string): Promise<Nationality | null> {
    return this.nationalities.createQueryBuilder('n').where('LOWER(n.name) = LOWER(:name)', { name }).getOne();
  }

  /**
   * The name of row `id` of a reference table, off the driver through a statement prepared once per
   * table: every employee read by id names its nationality (a TypeORM findOne cost about as much
   * as the employee's own read).
   */
  @RecordSql('nationalities', 1)
  async nameOf(table: string, id: number): Promise<string | null> {
    const row = await DriverReader.of(this.ds).first(`SELECT name FROM ${table} WHERE id = ?`, [id]);
    return row ? String(row.name) : null;
  }

  /** Whether an employee exists (a department's head; employees/ depends on this module, not the reverse). */
  @RecordSql(1)
  async employeeExists(id: number): Promise<boolean> {
    return (await this.ds.query<unknown[]>('SELECT 1 FROM employees WHERE id = ?', [id])).length > 0;
  }

  /** The given departments and all their descendants, in one recursive query. */
  @RecordSql([1, 2])
  async subtree(rootIds: number[]): Promise<number[]> {
    if (!rootIds.length) return [];
    const placeholders = rootIds.map(() => '?').join(', ');
    const rows = await this.ds.query<Array<{ id: number | string }>>(
      `WITH RECURSIVE sub (id) AS (
         SELECT id FROM departments WHERE id IN (${placeholders})
         UNION SELECT d.id FROM departments d JOIN sub ON d.parent_id = sub.id
       ) SELECT id FROM sub`,
      rootIds,
    );
    return rows.map((r) => Number(r.id));
  }

  /** The department and all its ancestors, in one recursive query (who administers a department). */
  @RecordSql(3)
  async ancestors(id: number): Promise<number[]> {
    const rows = await this.ds.query<Array<{ id: number | string }>>(
      `WITH RECURSIVE up (id, parent_id) AS (
         SELECT id, parent_id FROM departments WHERE id = ?
         UNION SELECT d.id, d.parent_id FROM departments d JOIN up ON d.id = up.parent_id
       ) SELECT id FROM up`,
      [id],
    );
    return rows.map((r) => Number(r.id));
  }
}
