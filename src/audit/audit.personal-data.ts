import { Injectable } from '@nestjs/common';
import { EntityManager, MoreThan } from 'typeorm';
import { AnonymisedSubject, PersonalData, redactJsonText } from '../common/privacy/personal-data';
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
  constructor(registry: PersonalData) {
    registry.register({
      name: 'audit',
      order: 98,
      anonymise: (em, subject) => this.anonymise(em, subject),
      export: (em, employeeId, out) =>
        out.lists('audit.json', 'the audit log entries about the employee: who did what to which record, and when', [
          { name: 'entries', entity: AuditEntry, where: { employeeId } },
        ]),
    });
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
