import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Between, In, LessThan, Repository } from 'typeorm';
import { ListSpec } from '../common/paging/list-request';
import { EmployeesRepository, RecordList } from '../employees/core/employees.repository';
import { AuditEntryDto } from './dto/audit-entry.dto';
import { AuditEntry } from './entities/audit-entry.entity';

export const AUDIT_LIST_SPEC: ListSpec = {
  defaultSort: { field: 'id', order: 'descend' },
  dateRange: { start: 'a.at', instant: true },
  idColumn: 'a.id',
  sortFields: { id: 'a.id' },
  filterFields: {
    resource: { column: 'a.resource', type: 'string' },
    resource_id: { column: 'a.resource_id', type: 'key' },
    employee: { column: 'a.employee_id', type: 'int' },
    actor: { column: 'a.actor', type: 'string' },
    action: { column: 'a.action', type: 'string' },
  },
};

export function toAuditDto(a: AuditEntry): AuditEntryDto {
  return {
    id: a.id,
    at: a.at.toISOString(),
    actor: a.actorUserId ?? (a.actor === 'cli' || a.actor === 'scim' ? a.actor : 'system'),
    action: a.action,
    resource: a.resource,
    resource_id: a.resourceId,
    employee: a.employeeId,
    changes: JSON.parse(a.changes) as Record<string, [unknown, unknown]>,
    request_id: a.requestId,
  };
}

/**
 * Reads the audit log (modules write it in their transactions with common/audit `recordAudit`):
 * an Admin everything, a Restricted Admin the changes of its departments' employees; retention.
 */
@Injectable()
export class AuditService {
  /** Entries of the employees the caller may list, or one employee's. */
  readonly list: RecordList<AuditEntryDto>;

  constructor(
    @InjectRepository(AuditEntry) private readonly entries: Repository<AuditEntry>,
    employeeRecords: EmployeesRepository,
  ) {
    this.list = employeeRecords.recordList(entries, 'a', AUDIT_LIST_SPEC, toAuditDto);
  }

  /**
   * The entries of some records of a resource, newest first, with their changes (1 000 records a
   * query): made in [from, to] when given, at most `take` a query when given. Who changed what a
   * payroll diff or an explanation names (a payroll's data edits name each cell, "employee 7 column 3").
   */
  async entriesOf(
    resource: string,
    resourceIds: readonly string[],
    options: { from?: Date; to?: Date; take?: number } = {},
  ): Promise<Array<{ resourceId: string; at: Date; actorUserId: number | null; changes: Record<string, unknown> }>> {
    const out: Array<{ resourceId: string; at: Date; actorUserId: number | null; changes: Record<string, unknown> }> = [];
    const { from, to, take } = options;
    for (let i = 0; i < resourceIds.length; i += 1000) {
      const entries = await this.entries.find({
        where: { resource, resourceId: In(resourceIds.slice(i, i + 1000)), ...(from && to ? { at: Between(from, to) } : {}) },
        order: { id: 'DESC' },
        take,
        select: { id: true, resourceId: true, at: true, actorUserId: true, changes: true },
      });
      for (const e of entries)
        out.push({
          resourceId: e.resourceId,
          at: e.at,
          actorUserId: e.actorUserId,
          changes: JSON.parse(e.changes) as Record<string, unknown>,
        });
    }
    return out.sort((a, b) => b.at.getTime() - a.at.getTime());
  }

  /** Deletes entries older than `days` days (maintenance:purge with the retention setting). */
  async purgeOlderThan(days: number, now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - days * 86_400_000);
    const res = await this.entries.delete({ at: LessThan(cutoff) });
    return res.affected ?? 0;
  }
}
