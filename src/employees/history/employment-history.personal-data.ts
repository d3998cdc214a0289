import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AnonymisedSubject, PersonalData, redactJsonText, redactText } from '../../common/privacy/personal-data';
import { storedRowList } from '../../common/privacy/subject-export';
import { EmploymentChange, EmploymentSegment } from '../entities/employment-history.entities';

/**
 * The employment history of a person (issue 69): its dated facts (department, job title, salary)
 * stay, payroll and insights read them; the personal values other modules keep in it (a dated
 * personal custom field) are set to null, and a change's reason loses the person's values.
 */
@Injectable()
export class EmploymentHistoryPersonalData {
  constructor(registry: PersonalData) {
    registry.register({
      name: 'employment-history',
      order: 50,
      anonymise: (em, subject) => this.anonymise(em, subject),
      export: async (em, employeeId, out) =>
        out.section('history', {
          segments: await storedRowList(em, { name: 'segments', entity: EmploymentSegment, where: { employeeId } }),
          changes: await storedRowList(em, { name: 'changes', entity: EmploymentChange, where: { employeeId } }),
        }),
    });
  }

  private async anonymise(em: EntityManager, subject: AnonymisedSubject): Promise<void> {
    const employeeId = subject.employeeId;
    for (const s of await em.getRepository(EmploymentSegment).findBy({ employeeId })) {
      const extra = s.extra === null ? null : redactJsonText(s.extra, subject);
      if (extra !== s.extra)
        await em.getRepository(EmploymentSegment).update({ employeeId, effectiveFrom: s.effectiveFrom }, { extra });
    }
    for (const c of await em.getRepository(EmploymentChange).findBy({ employeeId })) {
      const fields = redactJsonText(c.fields, subject);
      const reason = c.reason === null ? null : redactText(c.reason, subject);
      if (fields !== c.fields || reason !== c.reason)
        await em.getRepository(EmploymentChange).update({ id: c.id }, { fields, reason });
    }
  }
}
