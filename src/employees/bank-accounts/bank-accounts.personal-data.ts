import { Injectable } from '@nestjs/common';
import { PersonalData } from '../../common/privacy/personal-data';
import { rowsCategory } from '../../common/privacy/retention';
import { EmployeeBankAccount } from './bank-account.entity';

/**
 * A person's bank accounts (issue 69): IBANs and holder names are personal; the anonymisation
 * deletes them. The bank files already made keep what they paid (docs/api/privacy.md).
 */
@Injectable()
export class BankAccountsPersonalData {
  constructor(registry: PersonalData) {
    registry.register(
      {
        name: 'bank-accounts',
        order: 15,
        values: async (em, employeeId) =>
          (await em.getRepository(EmployeeBankAccount).findBy({ employeeId })).flatMap((a) => [a.iban, a.holderName]),
        export: (em, employeeId, out) =>
          out.lists('bank-accounts.json', 'the bank accounts, whole IBANs', [
            { name: 'bank_accounts', entity: EmployeeBankAccount, where: { employeeId } },
          ]),
        anonymise: async (em, subject) => {
          await em.getRepository(EmployeeBankAccount).delete({ employeeId: subject.employeeId });
        },
      },
      ['iban', 'bic', 'holder_name', 'iban_masked'],
    );
    // Both actions delete them: an account without its IBAN is nothing (the bank files made keep what they paid).
    const rule = { entity: EmployeeBankAccount };
    registry.retain(
      rowsCategory('bank_accounts', 'the bank accounts (IBAN, BIC, holder)', { anonymise: [rule], delete: [rule] }),
    );
  }
}
