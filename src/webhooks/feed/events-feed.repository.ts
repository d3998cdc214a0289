import { readerFor } from '../../common/database/read-replicas';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { RecordSql } from '../../common/database/record-sql';
import { OutboxEvent } from '../../common/outbox/outbox.entities';
import { EmployeeScope } from '../../employees/core/employee-access.service';
import { EmployeesRepository } from '../../employees/core/employees.repository';

/** A sequenced event as the feed reads it. */
export interface FeedRow {
  seq: number;
  event: string;
  /** The employee the event is about, or null. */
  employeeId: number | null;
  payload: string;
  createdAt: Date;
}

/** The events feed's SQL (issue 43): sequenced events after a cursor, of some types, in a caller's scope. */
@Injectable()
export class EventsFeedRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly employees: EmployeesRepository,
  ) {}

  /**
   * Up to `limit` events sequenced after `after`, in sequence order, of `types`; outside an
   * Admin's scope only events about an employee of the caller's (its own records' rule).
   */
  @RecordSql({ kind: 'team', selfId: 1 }, 0, ['employee.updated', 'leave.requested'], 500)
  async page(scope: EmployeeScope, after: number, types: readonly string[], limit: number): Promise<FeedRow[]> {
    // A replica's feed is the primary's, a little behind: sequences are given in order on the primary.
    const qb = (await readerFor(this.ds))
      .getRepository(OutboxEvent)
      .createQueryBuilder('o')
      .select([
        'o.seq AS seq',
        'o.event AS event',
        'o.employee_id AS employee_id',
        'o.payload AS payload',
        'o.created_at AS created_at',
      ])
      .where('o.seq > :after', { after })
      .andWhere('o.event IN (:...types)', { types })
      .orderBy('o.seq', 'ASC')
      .limit(limit);
    if (scope.kind !== 'all') this.employees.restrictToScope(qb.andWhere('o.employee_id IS NOT NULL'), 'o.employee_id', scope);
    const rows = await qb.getRawMany<{
      seq: number | string;
      event: string;
      employee_id: number | string | null;
      payload: string;
      created_at: string | Date;
    }>();
    return rows.map((r) => ({
      seq: Number(r.seq),
      event: r.event,
      employeeId: r.employee_id === null ? null : Number(r.employee_id),
      payload: r.payload,
      createdAt: r.created_at instanceof Date ? r.created_at : new Date(`${r.created_at.replace(' ', 'T')}Z`),
    }));
  }
}
