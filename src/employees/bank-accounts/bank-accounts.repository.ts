import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { RecordSql } from '../../common/database/record-sql';
import { EmployeeBankAccount } from './bank-account.entity';

/** An account the bank file pays to. */
export interface PayeeAccount {
  iban: string;
  bic: string | null;
  holderName: string;
}

/** Ids per statement. */
const BATCH = 1000;

/** What other modules read of bank accounts (the payroll's bank file), without a caller: the caller's module checks access. */
@Injectable()
export class BankAccountsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The primary account of each of these employees (those without one are absent). */
  @RecordSql([1, 2])
  async primaryOf(employeeIds: readonly number[]): Promise<Map<number, PayeeAccount>> {
    const out = new Map<number, PayeeAccount>();
    for (let i = 0; i < employeeIds.length; i += BATCH) {
      const rows = await this.ds.getRepository(EmployeeBankAccount).find({
        select: { employeeId: true, iban: true, bic: true, holderName: true },
        where: { employeeId: In(employeeIds.slice(i, i + BATCH)), primary: true },
      });
      for (const r of rows) out.set(r.employeeId, { iban: r.iban, bic: r.bic, holderName: r.holderName });
    }
    return out;
  }
}
