import { crudController } from '../common/crud/crud.controller';
import {
  CreateExchangeRateDto,
  CreateExpenseCategoryDto,
  ExchangeRateDto,
  ExpenseCategoryDto,
  UpdateExchangeRateDto,
  UpdateExpenseCategoryDto,
} from './dto/expenses.dto';
import { ExpensesSetupService, RATE_LIST } from './expenses-setup.service';

/** /expense-categories (issue 68): everyone reads (a claim names one), the Admins write. */
export const ExpenseCategoriesController = crudController<ExpensesSetupService>({
  path: 'expense-categories',
  label: 'Expense category',
  tag: 'Expenses',
  dto: ExpenseCategoryDto,
  createDto: CreateExpenseCategoryDto,
  updateDto: UpdateExpenseCategoryDto,
  service: ExpensesSetupService,
  crud: (s) => s.categories,
  note: 'A category in use by a claim cannot be deleted (409 IN_USE).',
});

/** /exchange-rates (issue 68): the Admins'. */
export const ExchangeRatesController = crudController<ExpensesSetupService>({
  path: 'exchange-rates',
  label: 'Exchange rate',
  tag: 'Expenses',
  dto: ExchangeRateDto,
  createDto: CreateExchangeRateDto,
  updateDto: UpdateExchangeRateDto,
  service: ExpensesSetupService,
  crud: (s) => s.rates,
  listSpec: RATE_LIST,
  readers: ['Admin'],
  note:
    'Units of the company currency (setting Company Currency) per unit of `currency`, from `date` until the next rate of ' +
    'the currency; one per currency and day (409 DUPLICATE naming date). CSV import: kind exchange-rates.',
});
