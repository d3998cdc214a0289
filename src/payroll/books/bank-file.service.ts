import { Inject, Injectable } from '@nestjs/common';
import { CompanyClock } from '../../common/time/company-clock';
import { Readable } from 'node:stream';
import { FILE_STORE, FileStore } from '../../common/storage/file-store';
import { PayrollBankFile } from './books.entities';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { recordAudit } from '../../common/audit/audit-log';
import { AuthUser } from '../../common/auth/auth-user';
import { bicProblem, ibanProblem } from '../../common/banking/iban';
import { transaction } from '../../common/database/transaction';
import { DomainException, NotFoundException, ValidationException } from '../../common/errors/domain.exception';
import { recordEvent } from '../../common/outbox/outbox';
import { addDays } from '../../common/time/days';
import { COMPANY_NAME } from '../../settings/settings.registry';
import { COMPANY_BIC, COMPANY_IBAN } from '../config/payroll.settings';
import { SettingsService } from '../../settings/settings.service';
import '../payroll.events';
import { BankFileDto, BankFileQueryDto } from './books.dto';
import { PayrollBooksAccess } from './payroll-books.access';
import { BankFileHead, controlSum, PainVersion } from './sepa-file';
import { BankFileDocuments } from './bank-file-documents';

function toBankFileDto(r: PayrollBankFile): BankFileDto {
  return {
    id: r.id,
    payroll: r.payrollId,
    revision: r.revision,
    format: r.format as PainVersion,
    execution_date: r.executionDate,
    skip_missing: r.skipMissing,
    msg_id: r.msgId,
    sha256: r.sha256,
    transactions: r.transactions,
    total: r.total,
    created_by: r.createdBy,
    created_at: r.createdAt.toISOString(),
  };
}

const weekend = (day: string) => [0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay());

/**
 * The payroll's bank file (issue 46, docs/api/decisions.md §22): a pain.001 credit transfer initiation paying
 * each employee's positive net pay (the payroll's net column, rounded to its currency as the grid
 * shows it) to its primary account, from the company's account. MsgId and EndToEndIds are made of
 * the payroll's id and revision, CreDtTm is when it was completed: the same revision gives the same
 * file, byte for byte, and a bank that already has it refuses it as a duplicate. Every file is
 * validated against the schema of its version, part by part as it is written to the store
 * (BankFileDocuments): an invalid file is a 500 with the schema's messages in the log, never a
 * file kept.
 */
@Injectable()
export class BankFileService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly access: PayrollBooksAccess,
    private readonly documents: BankFileDocuments,
    private readonly settings: SettingsService,
    private readonly clock: CompanyClock,
    @Inject(FILE_STORE) private readonly files: FileStore,
  ) {}

  /**
   * Makes the payroll's bank file for these parameters, or answers the one made already for the
   * same revision and parameters (created false): a file is made once, its bytes kept in the file
   * store, audited and announced (payroll.bank_file_created) when it is made.
   */
  async create(caller: AuthUser, id: number, query: BankFileQueryDto): Promise<{ record: BankFileDto; created: boolean }> {
    const payroll = await this.access.completed(caller, id);
    const version: PainVersion = query.format ?? 'pain.001.001.03';
    const executionDate = await this.executionDate(query.execution_date);
    const skipMissing = query.skip_missing === true;
    const params = { payrollId: id, revision: payroll.revision, format: version, executionDate, skipMissing };
    const records = this.dataSource.getRepository(PayrollBankFile);
    const existing = await records.findOne({ where: params });
    if (existing) return { record: toBankFileDto(existing), created: false };
    if (payroll.netColumnId === null)
      throw new DomainException('INVALID_STATE', `Payroll ${id} has no net_column: set the column that is its net pay first`);
    const head: BankFileHead = {
      version,
      msgId: `HR-P${payroll.id}-R${payroll.revision}`,
      createdAt: (payroll.completedAt ?? payroll.createdAt).toISOString().slice(0, 19),
      executionDate,
      debtor: await this.debtor(),
      remittance: `Salary ${payroll.name}`,
    };
    const text = await this.documents.collect(payroll, payroll.netColumnId, head, skipMissing);
    const { payments } = text;
    const transfers = payments.reduce((n, p) => n + p.count, 0);
    // Written to the store as it is made, part by part (memory holds a part, not the file).
    const bytes = Readable.from(
      (async function* () {
        for await (const chunk of text.document()) yield Buffer.from(chunk, 'utf8');
      })(),
    );
    const stored = await this.files
      .put(bytes, { maxBytes: Number.MAX_SAFE_INTEGER, contentType: 'application/xml' })
      .finally(() => text.dispose());
    try {
      const record = await transaction(this.dataSource, async (em) => {
        const saved = await em.getRepository(PayrollBankFile).save(
          em.getRepository(PayrollBankFile).create({
            ...params,
            msgId: head.msgId,
            sha256: stored.sha256,
            transactions: transfers,
            total: controlSum(payments),
            storageKey: stored.key,
            size: stored.size,
            createdBy: caller.id,
          }),
        );
        const after = { format: version, execution_date: executionDate, transfers, msg_id: head.msgId };
        await recordAudit(em, { action: 'bank-file', resource: 'payroll_config/payrolls', resourceId: id, after });
        await recordEvent(em, 'payroll.bank_file_created', {
          id,
          revision: payroll.revision,
          format: version,
          execution_date: executionDate,
          transfers,
          msg_id: head.msgId,
        });
        return saved;
      });
      return { record: toBankFileDto(record), created: true };
    } catch (err) {
      await this.files.remove(stored.key);
      // Made meanwhile by another request with the same parameters: that one.
      const raced = await records.findOne({ where: params });
      if (raced) return { record: toBankFileDto(raced), created: false };
      throw err;
    }
  }

  /** The bank files made for the payroll, newest first. */
  async list(caller: AuthUser, id: number): Promise<BankFileDto[]> {
    await this.access.readable(caller, id);
    const rows = await this.dataSource.getRepository(PayrollBankFile).find({ where: { payrollId: id }, order: { id: 'DESC' } });
    return rows.map(toBankFileDto);
  }

  /** A bank file's bytes, as made; 404 for another payroll's. */
  async download(caller: AuthUser, id: number, fileId: number): Promise<{ fileName: string; body: Readable; size: number }> {
    await this.access.readable(caller, id);
    const row = await this.dataSource.getRepository(PayrollBankFile).findOne({ where: { id: fileId, payrollId: id } });
    if (!row) throw new NotFoundException('Bank file');
    const opened = await this.files.open(row.storageKey);
    if (!opened) throw new DomainException('DEPENDENCY_UNAVAILABLE', `The stored bytes of bank file ${fileId} are missing`);
    return { fileName: `payroll-${id}-r${row.revision}-${row.format}.xml`, body: opened.body, size: opened.size };
  }

  /** The requested execution date (a weekday, today or later), or the next weekday from today on. */
  private async executionDate(requested: string | undefined): Promise<string> {
    const today = await this.clock.today();
    if (requested === undefined) {
      let day = today;
      while (weekend(day)) day = addDays(day, 1);
      return day;
    }
    if (requested < today) throw ValidationException.field('execution_date', `must not be in the past (today is ${today})`);
    if (weekend(requested))
      throw ValidationException.field('execution_date', 'must be a weekday (banks do not execute on weekends)');
    return requested;
  }

  private async debtor(): Promise<BankFileHead['debtor']> {
    const [name, iban, bic] = await Promise.all([COMPANY_NAME, COMPANY_IBAN, COMPANY_BIC].map((n) => this.settings.get(n)));
    const problem = iban ? ibanProblem(iban) : 'is not set';
    if (problem)
      throw new DomainException(
        'INVALID_STATE',
        `The setting "${COMPANY_IBAN}" ${problem}: the bank file pays from the company's account`,
      );
    return { name, iban, bic: bic && !bicProblem(bic) ? bic : null };
  }
}
