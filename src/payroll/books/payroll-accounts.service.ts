import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Not, Repository } from 'typeorm';
import { ReferenceCrud } from '../../common/crud/crud';
import { DomainException, ValidationException } from '../../common/errors/domain.exception';
import { ListSpec } from '../../common/paging/list-request';
import { PayrollColumn } from '../entities/payroll-config.entities';
import { PayrollAccountDto } from './books.dto';
import { PayrollAccount } from './books.entities';

export const PAYROLL_ACCOUNT_LIST: Partial<ListSpec> = {
  sortFields: { id: 'r.id', column: 'r.column_id' },
  searchColumns: ['r.debit_account', 'r.credit_account'],
};

/**
 * The chart of accounts payroll posts to (issue 46): one mapping per payroll column, to a debit and
 * a credit account (both null: the column is not posted, e.g. a subtotal), with or without a cost
 * centre per department.
 */
@Injectable()
export class PayrollAccountsService {
  readonly crud: ReferenceCrud<PayrollAccount, PayrollAccountDto>;

  constructor(
    @InjectRepository(PayrollAccount) repo: Repository<PayrollAccount>,
    @InjectRepository(PayrollColumn) private readonly columns: Repository<PayrollColumn>,
  ) {
    this.crud = new ReferenceCrud<PayrollAccount, PayrollAccountDto>({
      label: 'Payroll account',
      resource: 'payroll_config/accounts',
      repo,
      fields: { column: 'columnId', debit_account: 'debitAccount', credit_account: 'creditAccount', cost_centre: 'costCentre' },
      listSpec: PAYROLL_ACCOUNT_LIST,
      uniqueName: false,
      check: async (a, id) => {
        if (!(await this.columns.exists({ where: { id: a.columnId } })))
          throw ValidationException.field('column', 'does not exist');
        for (const [field, value, other] of [
          ['debit_account', a.debitAccount, a.creditAccount],
          ['credit_account', a.creditAccount, a.debitAccount],
        ] as const)
          if (value === null && other !== null)
            throw ValidationException.field(
              field,
              'is null while the other account is set: both are set, or both null (not posted)',
            );
        if (await repo.exists({ where: { columnId: a.columnId, ...(id ? { id: Not(id) } : {}) } }))
          throw new DomainException('DUPLICATE', `Column ${a.columnId} already has accounts`);
      },
    });
  }
}
