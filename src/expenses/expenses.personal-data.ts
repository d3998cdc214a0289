import { Injectable } from '@nestjs/common';
import { PersonalData, underEmployees } from '../common/privacy/personal-data';
import { ExpenseClaim, ExpenseItem } from './entities/expense.entities';

/**
 * A person's expense claims (issue 69): in its subject-access export (their receipts are its
 * documents, in documents/); they stay after anonymisation, as the payroll that paid them counts them.
 */
@Injectable()
export class ExpensesPersonalData {
  constructor(registry: PersonalData) {
    registry.register({
      name: 'expenses',
      order: 70,
      export: (em, employeeId, out) =>
        out.lists('expenses.json', 'the expense claims and their items (receipts are documents, in documents/)', [
          { name: 'claims', entity: ExpenseClaim, where: { employeeId } },
          {
            name: 'items',
            entity: ExpenseItem,
            where: { claimId: underEmployees('expense_claims', [employeeId]) },
          },
        ]),
    });
  }
}
