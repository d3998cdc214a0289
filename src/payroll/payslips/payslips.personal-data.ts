import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AnonymisedSubject, PersonalData, redactText } from '../../common/privacy/personal-data';
import { SubjectExport } from '../../common/privacy/subject-export';
import { GeneratedDocumentsService } from '../../documents/generated-documents.service';
import { Payslip } from '../entities/payroll-run.entities';

/**
 * A person's payslips (issue 69): their amounts are payroll results and stay; their rendered
 * HTML loses the personal values (its name becomes the person's new one). The PDFs are documents
 * of the employee and go with them.
 */
@Injectable()
export class PayslipsPersonalData {
  constructor(
    registry: PersonalData,
    private readonly documents: GeneratedDocumentsService,
  ) {
    registry.register({
      name: 'payslips',
      order: 60,
      anonymise: (em, subject) => this.anonymise(em, subject),
      export: (em, employeeId, out) => this.export(em, employeeId, out),
    });
  }

  /** payslips/: payslips.json (each payslip's payroll, delivery and document) and each payslip's PDF. */
  private async export(em: EntityManager, employeeId: number, out: SubjectExport): Promise<void> {
    await out.lists(
      'payslips/payslips.json',
      'the payslips (their amounts are in the payroll grid) and their delivery; each PDF beside it',
      [{ name: 'payslips', entity: Payslip, where: { employeeId }, omit: ['html'] }],
    );
    out.describe('payslips/payslip-<payslip>.pdf', 'the PDF of each payslip, protected by the password the payslip e-mail names');
    const payslips = await em
      .getRepository(Payslip)
      .find({ where: { employeeId }, select: { id: true, documentId: true }, order: { id: 'ASC' } });
    for (const p of payslips) {
      const key = p.documentId === null ? null : await this.documents.fileKeyOf(em, p.documentId);
      if (key) await out.file(`payslips/payslip-${p.id}.pdf`, key);
    }
  }

  private async anonymise(em: EntityManager, subject: AnonymisedSubject): Promise<void> {
    const repo = em.getRepository(Payslip);
    for (const p of await repo.find({ where: { employeeId: subject.employeeId }, select: { id: true, html: true } })) {
      const html = redactText(p.html, subject);
      if (html !== p.html) await repo.update({ id: p.id }, { html });
    }
  }
}
