import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull, MoreThan, Not } from 'typeorm';
import { PaperSize, PdfRenderer } from '../../common/pdf/pdf-renderer';
import { DocumentTypesService, PAYSLIP_DOCUMENT_TYPE } from '../../documents/document-types.service';
import { GeneratedDocumentsService } from '../../documents/generated-documents.service';
import { DeliveryFields, EmployeesRepository } from '../../employees/core/employees.repository';
import { PAYSLIP_PAPER_SIZE, PAYSLIP_PDF_PASSWORD } from '../config/payroll.settings';
import { SettingsService } from '../../settings/settings.service';
import { Payroll, Payslip } from '../entities/payroll-run.entities';

/** Payslips read at a time to render (their HTML held meanwhile). */
const CHUNK = 50;

export type PdfPasswordMode = 'none' | 'employee_id' | 'birthday';

/** A payslip whose PDF could not be made, and why. */
export interface PdfFailure {
  employee: number;
  message: string;
}

/** The password of an employee's PDFs under `mode`; null for none; an Error when the employee lacks what it is made of. */
export function pdfPassword(mode: PdfPasswordMode, employee: Pick<DeliveryFields, 'employeeId' | 'birthday'>): string | null {
  if (mode === 'none') return null;
  if (mode === 'employee_id') {
    if (!employee.employeeId) throw new Error('the employee has no employee code to make the PDF password of');
    return employee.employeeId;
  }
  if (!employee.birthday)
    throw new Error('the employee has no birthday to make the PDF password of (Payslip PDF Password: birthday)');
  const [y, m, d] = employee.birthday.split('-');
  return `${d}${m}${y}`;
}

/** A file name of a payslip PDF: `payslip-<payroll>-<employee code>.pdf`, letters, digits and dashes. */
function fileName(payroll: Payroll, employee: DeliveryFields | undefined, employeeId: number): string {
  const slug = (s: string) =>
    s
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60);
  return `payslip-${slug(payroll.name) || payroll.id}-${slug(employee?.employeeId ?? '') || employeeId}.pdf`;
}

/**
 * Payslip PDFs (issue 29): each payslip's HTML rendered by the PdfRenderer, encrypted when the
 * setting asks for it, and kept as a document of the employee (type `payslip`), linked from the
 * payslip. Without a browser, no PDFs: payslips stay HTML and the PDF routes answer 503.
 */
@Injectable()
export class PayslipPdfsService {
  private readonly logger = new Logger('PayslipPdfs');

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly renderer: PdfRenderer,
    private readonly documents: GeneratedDocumentsService,
    private readonly types: DocumentTypesService,
    private readonly employees: EmployeesRepository,
    private readonly settings: SettingsService,
  ) {}

  /** Why PDFs are not made here (no browser, or no qpdf while the password setting asks for one), or null. */
  async unavailableReason(): Promise<string | null> {
    const mode = (await this.settings.get(PAYSLIP_PDF_PASSWORD)) as PdfPasswordMode;
    return this.renderer.unavailableReason() ?? (mode === 'none' ? null : this.renderer.encryptionUnavailableReason());
  }

  /**
   * Renders and keeps the PDF of every payslip of the payroll that has none yet (of the employees
   * `among` only, given: a payslip chunk's), the browser's pages at a time. The failures, by employee
   * (their payslips keep no PDF). Nothing happens without a browser. A payslip removed meanwhile (a
   * superseded generation) keeps no document: its link finds no row and the document is rolled back.
   */
  async renderAll(payroll: Payroll, among?: number[]): Promise<PdfFailure[]> {
    const reason = await this.unavailableReason();
    if (reason) {
      this.logger.warn(`payslips of payroll ${payroll.id} have no PDFs: ${reason}`);
      return [];
    }
    const paper = (await this.settings.get(PAYSLIP_PAPER_SIZE)) as PaperSize;
    const mode = (await this.settings.get(PAYSLIP_PDF_PASSWORD)) as PdfPasswordMode;
    const type = await this.types.byCode(PAYSLIP_DOCUMENT_TYPE);
    const payslips = this.ds.getRepository(Payslip);
    const failures: PdfFailure[] = [];
    for (let after = 0; ;) {
      const chunk = await payslips.find({
        select: { id: true, employeeId: true, html: true },
        where: {
          payrollId: payroll.id,
          documentId: IsNull(),
          id: MoreThan(after),
          ...(among ? { employeeId: In(among) } : {}),
        },
        order: { id: 'ASC' },
        take: CHUNK,
      });
      if (!chunk.length) break;
      after = chunk[chunk.length - 1].id;
      const employees = await this.employees.deliveryFieldsOf(chunk.map((p) => p.employeeId));
      await inParallel(chunk, this.renderer.pages, async (payslip) => {
        const employee = employees.get(payslip.employeeId);
        try {
          const title = `Payslip ${payroll.name}${employee?.name ? ` — ${employee.name}` : ''}`;
          let pdf = await this.renderer.render(payslip.html, paper, title);
          const password = employee ? pdfPassword(mode, employee) : null;
          if (password !== null) pdf = await this.renderer.encrypt(pdf, password);
          // The document and the payslip's link to it in one transaction: no PDF without its payslip.
          await this.documents.storeGenerated(
            payslip.employeeId,
            type.id,
            { content: pdf, fileName: fileName(payroll, employee, payslip.employeeId), contentType: 'application/pdf' },
            { name: `Payslip ${payroll.name}`.slice(0, 200), validFrom: payroll.dateStart },
            async (em, documentId) => {
              const linked = await em.getRepository(Payslip).update({ id: payslip.id }, { documentId });
              if (!linked.affected) throw new Error('its payslip was removed meanwhile');
            },
          );
        } catch (err) {
          failures.push({ employee: payslip.employeeId, message: `no PDF: ${(err as Error).message}`.slice(0, 500) });
        }
      });
    }
    return failures;
  }

  /**
   * Deletes the PDFs of the payroll's payslips (of `employees` only, given: a payslip chunk's earlier
   * attempt) in `em`'s transaction (their files by the removal job: call `removeFilesSoon` after).
   */
  async removeAll(em: EntityManager, payrollId: number, employees?: number[]): Promise<void> {
    const rows = await em.getRepository(Payslip).find({
      select: { documentId: true },
      where: { payrollId, documentId: Not(IsNull()), ...(employees ? { employeeId: In(employees) } : {}) },
    });
    await this.documents.removeGenerated(
      em,
      rows.map((r) => r.documentId!),
    );
  }

  removeFilesSoon(): Promise<void> {
    return this.documents.removeFilesSoon();
  }
}

/** Runs `work` over `items`, at most `limit` at once. */
async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
