import { Injectable } from '@nestjs/common';
import { EntityManager, In, MoreThan, Not } from 'typeorm';
import { AnonymisedSubject, PersonalData, redactJsonText } from '../common/privacy/personal-data';
import { chunksOf, countByEmployee, RETENTION_AUDIT_ACTION, RetentionAction, total } from '../common/privacy/retention';
import { AuditEntry } from './entities/audit-entry.entity';

/** Entries read and rewritten at a time. */
const PAGE = 500;

/**
 * The audit log about a person (issue 69): its entries keep who did what to which record and when,
 * and lose the personal values they recorded (personal fields' before and after set to null,
 * personal values in other text replaced by the person's new name), the anonymisation's own entries
 * included: it runs after every other holder.
 */
@Injectable()
export class AuditPersonalData {
  constructor(private readonly registry: PersonalData) {
    registry.register({
      name: 'audit',
      order: 98,
      anonymise: (em, subject) => this.anonymise(em, subject),
      export: (em, employeeId, out) =>
        out.lists('audit.json', 'the audit log entries about the employee: who did what to which record, and when', [
          { name: 'entries', entity: AuditEntry, where: { employeeId } },
        ]),
    });
    registry.retain({
      category: 'audit',
      description:
        'the audit log entries about the employee: anonymise sets the values of personal fields in them to null, delete deletes them',
      count: (em, ids, action) => this.retentionCount(em, ids, action),
      apply: (em, ids, action) => this.retentionApply(em, ids, action),
    });
  }

  /**
   * Retention of the audit log: `delete` deletes the entries about the employee, `anonymise` sets
   * the values of personal fields in them to null (who did what, when stays); the retention job's
   * own entries stay.
   */
  private async retentionCount(
    em: EntityManager,
    employeeIds: readonly number[],
    action: RetentionAction,
  ): Promise<Map<number, number>> {
    if (action === 'delete') return countByEmployee(em, AuditEntry, employeeIds, [{ action: Not(RETENTION_AUDIT_ACTION) }]);
    const out = new Map<number, number>();
    await this.redactions(em, employeeIds, (e) => out.set(e.employeeId!, (out.get(e.employeeId!) ?? 0) + 1));
    return out;
  }

  private async retentionApply(
    em: EntityManager,
    employeeIds: readonly number[],
    action: RetentionAction,
  ): Promise<{ records: number }> {
    if (action === 'delete') {
      const records = total(await this.retentionCount(em, employeeIds, action));
      for (const ids of chunksOf(employeeIds))
        await em.getRepository(AuditEntry).delete({ employeeId: In(ids), action: Not(RETENTION_AUDIT_ACTION) });
      return { records };
    }
    let records = 0;
    await this.redactions(em, employeeIds, async (e, changes) => {
      await em.getRepository(AuditEntry).update({ id: e.id }, { changes });
      records++;
    });
    return { records };
  }

  /** Each entry about the employees whose personal fields hold values, with its changes redacted, a page at a time. */
  private async redactions(
    em: EntityManager,
    employeeIds: readonly number[],
    each: (entry: AuditEntry, changes: string) => unknown,
  ): Promise<void> {
    const subject: AnonymisedSubject = { employeeId: 0, name: '', values: [], keys: await this.registry.keysNow(em) };
    for (const ids of chunksOf(employeeIds))
      for (let after = 0; ;) {
        const entries = await em.getRepository(AuditEntry).find({
          where: { employeeId: In(ids), id: MoreThan(after) },
          order: { id: 'ASC' },
          take: PAGE,
          select: { id: true, employeeId: true, changes: true },
        });
        for (const e of entries) {
          const changes = redactJsonText(e.changes, subject);
          if (changes !== e.changes) await each(e, changes);
        }
        if (entries.length < PAGE) break;
        after = entries[entries.length - 1].id;
      }
  }

  private async anonymise(em: EntityManager, subject: AnonymisedSubject): Promise<void> {
    const repo = em.getRepository(AuditEntry);
    for (let after = 0; ;) {
      const entries = await repo.find({
        where: { employeeId: subject.employeeId, id: MoreThan(after) },
        order: { id: 'ASC' },
        take: PAGE,
        select: { id: true, changes: true },
      });
      for (const e of entries) {
        const changes = redactJsonText(e.changes, subject);
        if (changes !== e.changes) await repo.update({ id: e.id }, { changes });
      }
      if (entries.length < PAGE) return;
      after = entries[entries.length - 1].id;
    }
  }
}
