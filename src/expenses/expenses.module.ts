import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApprovalsModule } from '../approvals/approvals.module';
import { declareExtension } from '../common/meta/extensions';
import { declareApiTag } from '../common/openapi/api-tags';
import { DocumentsModule } from '../documents/documents.module';
import { EmployeesModule } from '../employees/employees.module';
import { PayrollModule } from '../payroll/payroll.module';
import { SettingsModule } from '../settings/settings.module';
import { declareMobileModule } from '../settings/settings.registry';
import { EXPENSE_ENTITIES } from './entities/expense.entities';
import { ExpenseClaimsController, EmployeeExpenseClaimsController } from './expense-claims.controller';
import { ExpenseClaimsReader } from './expense-claims.reader';
import { ExpenseClaimsRepository } from './expense-claims.repository';
import { ExpenseClaimsService } from './expense-claims.service';
import { ExpenseReceiptsService } from './expense-receipts.service';
import { ExchangeRatesImport } from './exchange-rates.import';
import './expenses.approvals';
import { ExchangeRatesController, ExpenseCategoriesController } from './expenses.controller';
import { ExpensesPayrollInputs } from './expenses.payroll-inputs';
import { ExpensesReactions } from './expenses.reactions';
import { ExpensesSetupService } from './expenses-setup.service';
import './expenses.settings';
import { ExpensesPersonalData } from './expenses.personal-data';

declareApiTag(
  'Expenses',
  'Expense claims with receipts in any currency, approved through the chains, paid once through payroll',
  127,
);

declareMobileModule({ key: 'expenses', label: 'Expenses' });

declareExtension({
  code: 'expenses',
  label: 'Expenses',
  features: ['expense-categories', 'exchange-rates', 'expense-claims', 'receipts', 'payroll-reimbursement'],
});

/** Expenses (issue 68, docs/api/expenses.md): joins from its own folder. */
@Module({
  imports: [
    ApprovalsModule,
    DocumentsModule,
    EmployeesModule,
    PayrollModule,
    SettingsModule,
    TypeOrmModule.forFeature(EXPENSE_ENTITIES),
  ],
  controllers: [ExpenseCategoriesController, ExchangeRatesController, ExpenseClaimsController, EmployeeExpenseClaimsController],
  providers: [
    ExpensesPersonalData,
    ExpensesSetupService,
    ExchangeRatesImport,
    ExpenseClaimsRepository,
    ExpenseClaimsReader,
    ExpenseClaimsService,
    ExpenseReceiptsService,
    ExpensesReactions,
    ExpensesPayrollInputs,
  ],
  exports: [ExpensesSetupService],
})
export class ExpensesModule {}
