import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { declareApiTag } from '../common/openapi/api-tags';
import { SettingsModule } from '../settings/settings.module';
import { EXPENSE_ENTITIES } from './entities/expense.entities';
import { ExchangeRatesImport } from './exchange-rates.import';
import { ExchangeRatesController, ExpenseCategoriesController } from './expenses.controller';
import { ExpensesSetupService } from './expenses-setup.service';
import './expenses.settings';

declareApiTag('Expenses', 'Expense categories and exchange rates (claims: issue 68, under way)', 127);

/** Expenses (issue 68, docs/api/expenses.md): joins from its own folder. */
@Module({
  imports: [SettingsModule, TypeOrmModule.forFeature(EXPENSE_ENTITIES)],
  controllers: [ExpenseCategoriesController, ExchangeRatesController],
  providers: [ExpensesSetupService, ExchangeRatesImport],
  exports: [ExpensesSetupService],
})
export class ExpensesModule {}
