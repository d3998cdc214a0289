import { INestApplicationContext } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { addDays } from '../../common/time/days';
import { CompanyClock } from '../../common/time/company-clock';
import { DocumentTypesService } from '../../documents/document-types.service';
import { GeneratedDocumentsService } from '../../documents/generated-documents.service';
import { DocumentType } from '../../documents/entities/document-type.entity';
import { Employee } from '../../employees/entities/employee.entity';
import { textPdf } from './demo-pdf';

/** Passports of the first twelve employees: days from today to their end (three within the Passport's 90-day window). */
const PASSPORT_DAYS_LEFT: Record<string, number> = {
  E0001: 1460,
  E0002: 2100,
  E0003: 5,
  E0004: 820,
  E0005: 1900,
  E0006: 640,
  E0007: 20,
  E0008: 1200,
  E0009: 3000,
  E0010: 60,
  E0011: 2500,
  E0012: 400,
};
/** Work permits: one expired ten days ago, one ending within a fortnight, one valid. */
const PERMIT_DAYS_LEFT: Record<string, number> = { E0004: -10, E0008: 12, E0011: 300 };
/** Certificates (a type employees upload themselves). */
const CERTIFICATES: Record<string, string> = { E0005: 'Chartered accountant', E0007: 'First aid' };

/**
 * The demo company's document types (issue 28), and documents of the first twelve employees: a
 * passport and a contract each, a few work permits and certificates, some expiring within the
 * month and one expired, so that `GET /documents?filters={"status":"Expiring"}` has answers. The
 * files are small PDFs stored through the configured file store. Idempotent.
 */
export async function seedDemoDocuments(app: INestApplicationContext): Promise<void> {
  const ds = app.get(DataSource);
  if (await ds.getRepository(DocumentType).exists({ where: { name: 'Passport' } })) return;
  const types = app.get(DocumentTypesService).types;
  const passport = await types.create({ name: 'Passport', expires: true, notify_days_before: [90, 30, 7] });
  const permit = await types.create({ name: 'Work permit', expires: true, notify_days_before: [90, 30, 7, 1] });
  const contract = await types.create({ name: 'Employment contract', visible_to_manager: true });
  const certificate = await types.create({ name: 'Certificate', visible_to_manager: true, employee_may_upload: true });

  const documents = app.get(GeneratedDocumentsService);
  const employees = await ds
    .getRepository(Employee)
    .find({ where: { employeeId: In(Object.keys(PASSPORT_DAYS_LEFT)) }, order: { id: 'ASC' } });
  const day = await app.get(CompanyClock).today();
  const pdf = (title: string, e: Employee, lines: string[]) => ({
    content: textPdf([title, `${e.firstName} ${e.lastName} (${e.employeeId})`, ...lines]),
    fileName: `${title.toLowerCase().replace(/\W+/g, '-')}-${e.employeeId}.pdf`,
    contentType: 'application/pdf',
  });
  for (const e of employees) {
    const until = addDays(day, PASSPORT_DAYS_LEFT[e.employeeId]);
    await documents.storeGenerated(e.id, passport.id, pdf('Passport', e, [`Valid until ${until}`]), {
      validFrom: addDays(until, -3652),
      validUntil: until,
    });
    await documents.storeGenerated(e.id, contract.id, pdf('Employment contract', e, [`Starting ${e.joinedDate}`]), {
      validFrom: e.joinedDate,
      notes: 'Signed copy',
    });
    if (e.employeeId in PERMIT_DAYS_LEFT) {
      const permitUntil = addDays(day, PERMIT_DAYS_LEFT[e.employeeId]);
      await documents.storeGenerated(e.id, permit.id, pdf('Work permit', e, [`Valid until ${permitUntil}`]), {
        validFrom: addDays(permitUntil, -730),
        validUntil: permitUntil,
      });
    }
    if (e.employeeId in CERTIFICATES) {
      const name = `${CERTIFICATES[e.employeeId]} certificate`;
      await documents.storeGenerated(e.id, certificate.id, pdf(name, e, [`Awarded ${addDays(day, -400)}`]), { name });
    }
  }
}
