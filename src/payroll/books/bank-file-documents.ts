import { Injectable, Logger } from '@nestjs/common';
import { bicProblem, ibanProblem } from '../../common/banking/iban';
import { DomainException } from '../../common/errors/domain.exception';
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

/**
 * A payroll's pain.001 document made a window of employees at a time (issue 70, docs/api/payroll.md
 * "The books at scale"): a first pass counts and sums the transfers per currency (the group and
 * payment headers come before them) and finds employees without an account; the second writes the
 * document as text chunks, each payment's transfers in parts of two windows validated against the
 * schema before they are given out, each part inside the real headers. pain.001's schemas have no
 * identity constraints: a document is valid when each of its transfers and its headers are, so the
 * parts together check every byte. Memory holds a window and a part, whatever the payroll's size.
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
   * The transfers counted and summed per currency, in the order each currency first appears by
   * employee id; 409 MISSING_BANK_ACCOUNTS naming employees without a valid primary account unless
   * skipMissing; 409 INVALID_STATE when no one is paid.
   */
  async totals(payroll: Payroll, netColumn: number, skipMissing: boolean): Promise<PaymentTotals[]> {
    const payments = new Map<string, PaymentTotals>();
    const missing: number[] = [];
    let missingCount = 0;
    for await (const w of this.windows(payroll, netColumn)) {
      paymentTotals(w.transfers, payments);
      missingCount += w.missing.length;
      missing.push(...w.missing.slice(0, NAMED_MISSING - missing.length));
    }
    if (missingCount && !skipMissing) {
      const names = await this.facts.namesOf(missing);
      throw new DomainException(
        'MISSING_BANK_ACCOUNTS',
        `${missingCount} employees with a net pay have no valid primary bank account (skip_missing=true leaves them out)`,
        missing.map((e) => {
          const who = names.get(e);
          return {
            field: 'employees',
            message: `${who ? `${who.employee_id} ${who.name}` : 'employee'} (id ${e}) has no valid primary bank account`,
          };
        }),
      );
    }
    if (!payments.size)
      throw new DomainException(
        'INVALID_STATE',
        `Payroll ${payroll.id} pays no one: no employee has a positive net pay and a valid primary bank account`,
      );
    return [...payments.values()];
  }

  /**
   * The document's text, chunk by chunk, each part of transfers validated before it is given out.
   * A transfer that changed since `payments` were counted (an account added or removed meanwhile)
   * fails it with 409 CONFLICT: the headers would not match the transfers.
   */
  async *document(payroll: Payroll, netColumn: number, head: BankFileHead, payments: PaymentTotals[]): AsyncGenerator<string> {
    const header = painHeader(head, payments);
    yield header;
    for (const payment of payments) {
      const start = paymentHeader(head, payment);
      yield start;
      const written = { count: 0, minor: 0n };
      let [part, inPart] = ['', 0];
      const checked = async () => {
        const errors = await schemaErrors(head.version, header + start + part + PAYMENT_END + DOCUMENT_END);
        if (!errors.length) return part;
        this.logger.error(
          `bank file of payroll ${payroll.id} (${head.version}) is not valid against its schema: ${errors.slice(0, 20).join(' | ')}`,
        );
        throw new Error(`bank file of payroll ${payroll.id} failed schema validation`);
      };
      for await (const w of this.windows(payroll, netColumn)) {
        for (const t of w.transfers) {
          if (t.currency !== payment.currency) continue;
          part += transferText(head, t);
          inPart++;
          written.count++;
          written.minor += t.minor;
        }
        if (inPart < WINDOWS_PER_PART * this.bookWindows.size) continue;
        yield await checked();
        [part, inPart] = ['', 0];
      }
      if (written.count !== payment.count || written.minor !== payment.minor)
        throw new DomainException(
          'CONFLICT',
          `The ${payment.currency} transfers of payroll ${payroll.id} changed while its bank file was made (an account added or removed): make it again`,
        );
      if (part) yield await checked();
      yield PAYMENT_END;
    }
    yield DOCUMENT_END;
  }

  /** The transfers of a window of employees (one per employee with a positive net, in id order), and those without a valid account. */
  private async *windows(payroll: Payroll, netColumn: number): AsyncGenerator<{ transfers: Transfer[]; missing: number[] }> {
    for (let after = 0; ; ) {
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
