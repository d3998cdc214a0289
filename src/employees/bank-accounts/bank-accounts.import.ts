import { Injectable } from '@nestjs/common';
import { declareImportKind } from '../../common/import/import-kinds.constants';
import { ImportColumn, ImportKinds, ImportRun, ImportSession, RowDetail } from '../../common/import/import-kind';
import { rowByRow } from '../../common/import/row-by-row';
import { IsRefId } from '../../common/validation/decorators';
import { EmployeeLookup, EmployeeRowsKind } from '../core/employee-lookup';
import { CreateBankAccountDto } from './bank-accounts.dto';
import { BankAccountsService } from './bank-accounts.service';

/** Declared when this file loads (common/import/import-kinds.constants.ts). */
const BANK_ACCOUNTS_IMPORT = declareImportKind('bank-accounts');

export const BANK_ACCOUNT_COLUMNS: readonly ImportColumn[] = [
  { field: 'employee', label: 'Employee ID', type: 'text', example: 'E0042', required: true, note: 'employee_id (or id)' },
  { field: 'iban', label: 'IBAN', type: 'text', example: 'DE89 3704 0044 0532 0130 00', required: true },
  { field: 'bic', label: 'BIC', type: 'text', example: 'COBADEFFXXX' },
  { field: 'holder_name', label: 'Account holder', type: 'text', example: 'Jane Doe', required: true },
  {
    field: 'primary',
    label: 'Primary',
    type: 'boolean',
    example: 'true',
    note: "default: true for the employee's first account",
  },
];

/**
 * `bank-accounts`: one account per row, added as POST /employees/{id}/bank-accounts adds it (the
 * same checks, audit and notification), in file order: a later primary row of an employee wins.
 */
@Injectable()
export class BankAccountsImport extends EmployeeRowsKind {
  readonly kind = BANK_ACCOUNTS_IMPORT;
  readonly columns = BANK_ACCOUNT_COLUMNS;

  constructor(
    kinds: ImportKinds,
    lookup: EmployeeLookup,
    private readonly accounts: BankAccountsService,
  ) {
    super(kinds, lookup);
  }

  start(run: ImportRun): Promise<ImportSession> {
    return Promise.resolve({
      batch: async (em, rows) => {
        const problems: RowDetail[] = [];
        const bodies = await this.bodies(em, rows, BANK_ACCOUNT_COLUMNS, {}, problems);
        problems.push(
          ...(await rowByRow(
            em,
            rows,
            AccountWithEmployee,
            (row) => bodies.get(row) ?? null,
            (dto) => this.accounts.create(run.caller, dto.employee, dto),
          )),
        );
        return problems;
      },
    });
  }
}

class AccountWithEmployee extends CreateBankAccountDto {
  @IsRefId() employee: number;
}
