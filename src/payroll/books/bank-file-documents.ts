import { Injectable, Logger } from '@nestjs/common';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { timeSlices } from '../../common/async/time-slices';
import { bicProblem, ibanProblem } from '../../common/banking/iban';
import { DomainException } from '../../common/errors/domain.exception';
import { LineReader, LineWriter } from '../../common/export/line-files';
import { minorUnitOf } from '../../common/money/currencies';
import { DECIMAL_TEXT_COLUMN, toMinorUnits } from '../../common/money/money';
import { BankAccountsRepository } from '../../employees/bank-accounts/bank-accounts.repository';
import { EmployeeFactsService } from '../../employees/employee-facts.service';
import { Payroll } from '../entities/payroll-run.entities';
import { PayrollGridService } from '../runs/payroll-grid.service';
import { BookWindows } from './book-windows';
import { BooksRepository } from './books.repository';
import {
  BankFileHead,
  DOCUMENT_END,
  PAYMENT_END,
  paymentHeader,
  PaymentTotals,
  paymentTotals,
  painHeader,
  Transfer,
  transferText,
} from './sepa-file';
import { schemaErrors } from './xsd-validator';

/** Windows of transfers a schema validation holds: 4 000 transfers by default, 1.4 MB of text (a call costs ~55 ms, a transfer ~17 µs). */
const WINDOWS_PER_PART = 2;

/** Employees named in MISSING_BANK_ACCOUNTS. */
const NAMED_MISSING = 50;

/** A bank file's transfers, counted and written: its document is read from them; `dispose` removes them. */
export interface BankFileText {
  /** Per currency, in the order each first appears by employee id. */
  payments: PaymentTotals[];
  /** The document's text, chunk by chunk, each part of transfers validated against the schema before it is given out. */
  document(): AsyncGenerator<string>;
  /** Removes the temporary files (once the document is stored, or given up). */
  dispose(): Promise<void>;
}

/**
 * A payroll's pain.001 document made a window of employees at a time (issue 70, docs/api/payroll.md
 * "The books at scale"). The group and payment headers, which count and sum the transfers, come
 * before them: one pass over the payroll writes each currency's transfers to a temporary file and
 * counts them (one read of the payroll, so the headers and the transfers cannot disagree), then the
 * document is the headers and those files, each payment's transfers in parts of two windows
 * validated against the schema inside the real headers before they are given out. pain.001's
 * schemas have no identity constraints: a document is valid when its headers and each of its
 * transfers are, so the parts together check every byte. Memory holds a window and a part,
 * whatever the payroll's size.
 */
@Injectable()
export class BankFileDocuments {
  private readonly logger = new Logger('BankFile');

  constructor(
    private readonly repository: BooksRepository,
    private readonly bookWindows: BookWindows,
    private readonly grid: PayrollGridService,
    private readonly accounts: BankAccountsRepository,
    private readonly facts: EmployeeFactsService,
  ) {}

  /**
   * The payroll's transfers, counted per currency and written to temporary files; 409
   * MISSING_BANK_ACCOUNTS naming employees without a valid primary account unless skipMissing;
   * 409 INVALID_STATE when it pays no one.
   */
  async collect(payroll: Payroll, netColumn: number, head: BankFileHead, skipMissing: boolean): Promise<BankFileText> {
    const dir = await mkdtemp(join(tmpdir(), 'hr-bank-file-'));
    const dispose = () => rm(dir, { recursive: true, force: true });
    const payments = new Map<string, PaymentTotals>();
    const files = new Map<string, { path: string; writer: LineWriter }>();
    const missing: number[] = [];
    let missingCount = 0;
    try {
      for await (const w of this.windows(payroll, netColumn)) {
        paymentTotals(w.transfers, payments);
        for (const t of w.transfers) {
          let file = files.get(t.currency);
          if (!file) {
            const path = join(dir, `payment-${files.size}.xml`);
            files.set(t.currency, (file = { path, writer: await LineWriter.create(path) }));
          }
          // One line per transfer (its text ends with the newline the writer adds).
          await file.writer.write(transferText(head, t).slice(0, -1));
        }
        missingCount += w.missing.length;
        missing.push(...w.missing.slice(0, NAMED_MISSING - missing.length));
      }
      for (const { writer } of files.values()) await writer.close();
      if (missingCount && !skipMissing) throw await this.missingAccounts(missing, missingCount);
      if (!payments.size)
        throw new DomainException(
          'INVALID_STATE',
          `Payroll ${payroll.id} pays no one: no employee has a positive net pay and a valid primary bank account`,
        );
    } catch (err) {
      await Promise.all([...files.values()].map((f) => f.writer.close().catch(() => undefined)));
      await dispose();
      throw err;
    }
    const totals = [...payments.values()];
    return { payments: totals, document: () => this.document(payroll, head, totals, files), dispose };
  }

  private async missingAccounts(missing: number[], count: number): Promise<DomainException> {
    const names = await this.facts.namesOf(missing);
    return new DomainException(
      'MISSING_BANK_ACCOUNTS',
      `${count} employees with a net pay have no valid primary bank account (skip_missing=true leaves them out)`,
      missing.map((e) => {
        const who = names.get(e);
        return {
          field: 'employees',
          message: `${who ? `${who.employee_id} ${who.name}` : 'employee'} (id ${e}) has no valid primary bank account`,
        };
      }),
    );
  }

  private async *document(
    payroll: Payroll,
    head: BankFileHead,
    payments: PaymentTotals[],
    files: Map<string, { path: string }>,
  ): AsyncGenerator<string> {
    const header = painHeader(head, payments);
    yield header;
    const perPart = WINDOWS_PER_PART * this.bookWindows.size;
    for (const payment of payments) {
      const start = paymentHeader(head, payment);
      yield start;
      const file = await open(files.get(payment.currency)!.path, 'r');
      try {
        const lines = new LineReader(file);
        // A part is validated (in a worker thread) while the next is read: one validation at a time,
        // each worker holds its own WebAssembly memory.
        let previous: { part: string; valid: Promise<void> } | undefined;
        for (;;) {
          let [part, count] = ['', 0];
          for (let line = await lines.read(); line !== undefined; line = count < perPart ? await lines.read() : undefined) {
            part += `${line}\n`;
            count++;
          }
          if (previous) {
            await previous.valid;
            yield previous.part;
            previous = undefined;
          }
          if (!count) break;
          const valid = this.validate(payroll, head, header + start + part + PAYMENT_END + DOCUMENT_END);
          valid.catch(() => undefined); // awaited above; a reader that stopped leaves none unhandled
          previous = { part, valid };
        }
      } finally {
        await file.close();
      }
      yield PAYMENT_END;
    }
    yield DOCUMENT_END;
  }

  private async validate(payroll: Payroll, head: BankFileHead, document: string): Promise<void> {
    const errors = await schemaErrors(head.version, document);
    if (!errors.length) return;
    this.logger.error(
      `bank file of payroll ${payroll.id} (${head.version}) is not valid against its schema: ${errors.slice(0, 20).join(' | ')}`,
    );
    throw new Error(`bank file of payroll ${payroll.id} failed schema validation`);
  }

  /** The transfers of a window of employees (one per employee with a positive net, in id order), and those without a valid account. */
  private async *windows(payroll: Payroll, netColumn: number): AsyncGenerator<{ transfers: Transfer[]; missing: number[] }> {
    // On SQLite every read resolves at once: without a pause a whole payroll would be one turn of the event loop.
    const slices = timeSlices();
    for (let after = 0; ;) {
      if (slices.due()) await slices.pause();
      const cells = await this.repository.columnCellsAfter(payroll.id, netColumn, after, this.bookWindows.size);
      if (!cells.length) return;
      after = cells[cells.length - 1][0];
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
      yield { transfers, missing };
    }
  }
}
