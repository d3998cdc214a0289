import { Inject, Injectable, Logger } from '@nestjs/common';
import { CompanyClock } from '../../common/time/company-clock';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { FILE_STORE, FileStore } from '../../common/storage/file-store';
import { PayrollBankFile } from './books.entities';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { recordAudit } from '../../common/audit/audit-log';
import { AuthUser } from '../../common/auth/auth-user';
import { bicProblem, ibanProblem } from '../../common/banking/iban';
import { timeSlices } from '../../common/async/time-slices';
import { transaction } from '../../common/database/transaction';
import { DomainException, NotFoundException, ValidationException } from '../../common/errors/domain.exception';
import { minorUnitOf } from '../../common/money/currencies';
import { DECIMAL_TEXT_COLUMN, toMinorUnits } from '../../common/money/money';
import { recordEvent } from '../../common/outbox/outbox';
import { addDays } from '../../common/time/days';
import { BankAccountsRepository } from '../../employees/bank-accounts/bank-accounts.repository';
import { EmployeeFactsService } from '../../employees/employee-facts.service';
import { COMPANY_NAME } from '../../settings/settings.registry';
import { COMPANY_BIC, COMPANY_IBAN } from '../config/payroll.settings';
import { SettingsService } from '../../settings/settings.service';
import '../payroll.events';
import { Payroll } from '../entities/payroll-run.entities';
import { PayrollGridService } from '../runs/payroll-grid.service';
import { BankFileDto, BankFileQueryDto } from './books.dto';
import { BooksRepository } from './books.repository';
import { PayrollBooksAccess } from './payroll-books.access';
import { BankFile, controlSum, PainVersion, painDocument, Transfer } from './sepa-file';
import { schemaErrors } from './xsd-validator';

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
 * validated against the schema of its version before a byte is sent: an invalid file is a 500
 * with the schema's messages in the log, never a file.
 */
@Injectable()
export class BankFileService {
  private readonly logger = new Logger('BankFile');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly access: PayrollBooksAccess,
    private readonly repository: BooksRepository,
    private readonly grid: PayrollGridService,
    private readonly accounts: BankAccountsRepository,
    private readonly facts: EmployeeFactsService,
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
    const { text, file } = await this.build(payroll, version, executionDate, skipMissing);
    const bytes = Buffer.from(text, 'utf8');
    const stored = await this.files.put(Readable.from([bytes]), { maxBytes: bytes.length, contentType: 'application/xml' });
    try {
      const record = await transaction(this.dataSource, async (em) => {
        const saved = await em.getRepository(PayrollBankFile).save(
          em.getRepository(PayrollBankFile).create({
            ...params,
            msgId: file.msgId,
            sha256: createHash('sha256').update(bytes).digest('hex'),
            transactions: file.transfers.length,
            total: controlSum(file.transfers),
            storageKey: stored.key,
            size: bytes.length,
            createdBy: caller.id,
          }),
        );
        const after = { format: version, execution_date: executionDate, transfers: file.transfers.length, msg_id: file.msgId };
        await recordAudit(em, { action: 'bank-file', resource: 'payroll_config/payrolls', resourceId: id, after });
        await recordEvent(em, 'payroll.bank_file_created', {
          id,
          revision: payroll.revision,
          format: version,
          execution_date: executionDate,
          transfers: file.transfers.length,
          msg_id: file.msgId,
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

  /** The file of a payroll at these parameters, validated against its schema; writes nothing. */
  private async build(
    payroll: Payroll,
    version: PainVersion,
    executionDate: string,
    skipMissing: boolean,
  ): Promise<{ text: string; file: BankFile }> {
    const id = payroll.id;
    if (payroll.netColumnId === null)
      throw new DomainException('INVALID_STATE', `Payroll ${id} has no net_column: set the column that is its net pay first`);
    const debtor = await this.debtor();
    const file: BankFile = {
      version,
      msgId: `HR-P${payroll.id}-R${payroll.revision}`,
      createdAt: (payroll.completedAt ?? payroll.createdAt).toISOString().slice(0, 19),
      executionDate,
      debtor,
      remittance: `Salary ${payroll.name}`,
      transfers: await this.transfers(payroll, payroll.netColumnId, skipMissing),
    };
    // Written in chunks of transfers with pauses between them (a 12 500-transfer file is ~0.1 s of work).
    const chunks: string[] = [];
    const slices = timeSlices();
    for (const chunk of painDocument(file)) {
      chunks.push(chunk);
      if (slices.due()) await slices.pause();
    }
    const text = chunks.join('');
    const errors = await schemaErrors(version, text);
    if (errors.length) {
      this.logger.error(
        `bank file of payroll ${id} (${version}) is not valid against its schema: ${errors.slice(0, 20).join(' | ')}`,
      );
      throw new Error(`bank file of payroll ${id} failed schema validation`);
    }
    return { text, file };
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

  private async debtor(): Promise<BankFile['debtor']> {
    const [name, iban, bic] = await Promise.all([COMPANY_NAME, COMPANY_IBAN, COMPANY_BIC].map((n) => this.settings.get(n)));
    const problem = iban ? ibanProblem(iban) : 'is not set';
    if (problem)
      throw new DomainException(
        'INVALID_STATE',
        `The setting "${COMPANY_IBAN}" ${problem}: the bank file pays from the company's account`,
      );
    return { name, iban, bic: bic && !bicProblem(bic) ? bic : null };
  }

  /** One transfer per employee with a positive net, in employee id order; 409 naming those without a valid primary account. */
  private async transfers(payroll: Payroll, netColumn: number, skipMissing: boolean): Promise<Transfer[]> {
    const cells = (await this.repository.columnCells(payroll.id, netColumn)).sort((a, b) => a[0] - b[0]);
    const ids = cells.map(([e]) => e);
    const [currencies, accounts] = await Promise.all([this.grid.currenciesOf(ids), this.accounts.primaryOf(ids)]);
    const transfers: Transfer[] = [];
    const missing: number[] = [];
    for (const [employee, value] of cells) {
      const text = DECIMAL_TEXT_COLUMN.from(value as string | number | null);
      if (text === null) continue;
      const currency = currencies.get(employee) ?? 'EUR';
      const digits = minorUnitOf(currency);
      const minor = toMinorUnits(text, digits);
      if (minor <= 0n) continue;
      const account = accounts.get(employee);
      if (!account || ibanProblem(account.iban)) {
        missing.push(employee);
        continue;
      }
      transfers.push({
        endToEndId: `P${payroll.id}-R${payroll.revision}-E${employee}`,
        minor,
        currency,
        digits,
        name: account.holderName,
        iban: account.iban,
        bic: account.bic && !bicProblem(account.bic) ? account.bic : null,
      });
    }
    if (missing.length && !skipMissing) {
      const names = await this.facts.namesOf(missing.slice(0, 50));
      throw new DomainException(
        'MISSING_BANK_ACCOUNTS',
        `${missing.length} employees with a net pay have no valid primary bank account (skip_missing=true leaves them out)`,
        missing.slice(0, 50).map((e) => {
          const who = names.get(e);
          return {
            field: 'employees',
            message: `${who ? `${who.employee_id} ${who.name}` : 'employee'} (id ${e}) has no valid primary bank account`,
          };
        }),
      );
    }
    return transfers;
  }
}
