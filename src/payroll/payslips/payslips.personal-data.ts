import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AnonymisedSubject, PersonalData, redactText } from '../../common/privacy/personal-data';
import { Payslip } from '../entities/payroll-run.entities';

/**
 * A person's payslips (issue 69): their amounts are payroll results and stay; their rendered
 * HTML loses the personal values (its name becomes the person's new one). The PDFs are documents
 * of the employee and go with them.
 */
@Injectable()
export class PayslipsPersonalData {
  constructor(registry: PersonalData) {
    registry.register({ name: 'payslips', order: 60, anonymise: (em, subject) => this.anonymise(em, subject) });
  }

  private async anonymise(em: EntityManager, subject: AnonymisedSubject): Promise<void> {
    const repo = em.getRepository(Payslip);
    for (const p of await repo.find({ where: { employeeId: subject.employeeId }, select: { id: true, html: true } })) {
      const html = redactText(p.html, subject);
      if (html !== p.html) await repo.update({ id: p.id }, { html });
    }
  }
}
