import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, LessThanOrEqual, Not } from 'typeorm';
import { ReferenceCrud } from '../common/crud/crud';
import { DomainException, ValidationException } from '../common/errors/domain.exception';
import { CURRENCIES } from '../common/money/currencies';
import { SettingsService } from '../settings/settings.service';
import { ExchangeRateDto, ExpenseCategoryDto } from './dto/expenses.dto';
import { ExchangeRate, ExpenseCategory, ExpenseItem } from './entities/expense.entities';
import { crossRate } from './exchange-rates';
import { COMPANY_CURRENCY } from './expenses.settings';

/** Exchange rates list by currency and day, newest first unless sorted otherwise. */
export const RATE_LIST = {
  sortFields: { id: 'r.id', date: 'r.date', currency: 'r.currency' },
  defaultSort: { field: 'date', order: 'descend' as const },
  filterFields: { currency: { column: 'r.currency', type: 'string' as const } },
  searchColumns: [],
};

/**
 * Expense categories and exchange rates (issue 68, docs/api/expenses.md): the Admin's tables every
 * claim reads, and the rate of a currency on a day (the last one on or before it).
 */
@Injectable()
export class ExpensesSetupService {
  readonly categories: ReferenceCrud<ExpenseCategory, ExpenseCategoryDto>;
  readonly rates: ReferenceCrud<ExchangeRate, ExchangeRateDto>;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly settings: SettingsService,
  ) {
    this.categories = new ReferenceCrud<ExpenseCategory, ExpenseCategoryDto>({
      label: 'Expense category',
      resource: 'expense-categories',
      repo: ds.getRepository(ExpenseCategory),
      fields: { name: 'name', account: 'account', max_amount: 'maxAmount', requires_receipt: 'requiresReceipt' },
      checkDelete: async (id) => {
        if (await ds.getRepository(ExpenseItem).exists({ where: { categoryId: id } }))
          throw new DomainException('IN_USE', `Expense category ${id} is used by claims and cannot be deleted`);
      },
    });
    this.rates = new ReferenceCrud<ExchangeRate, ExchangeRateDto>({
      label: 'Exchange rate',
      resource: 'exchange-rates',
      repo: ds.getRepository(ExchangeRate),
      fields: { currency: 'currency', date: 'date', rate: 'rate' },
      uniqueName: false,
      listSpec: RATE_LIST,
      check: (rate, id) => this.checkRate(rate, id),
    });
  }

  /** The company currency (the setting). */
  companyCurrency(): Promise<string> {
    return this.settings.get(COMPANY_CURRENCY);
  }

  /**
   * The rate turning an amount in `from` on `day` into `to` (through the company currency: its own
   * rate is 1), from each currency's rate of that day or the last before; none → 400 naming the
   * currency and the day.
   */
  async rateOn(from: string, to: string, day: string, em: EntityManager = this.ds.manager): Promise<string> {
    if (from === to) return '1';
    const company = await this.companyCurrency();
    const of = async (currency: string) => {
      if (currency === company) return '1';
      const found = await em.getRepository(ExchangeRate).findOne({
        where: { currency, date: LessThanOrEqual(day) },
        order: { date: 'DESC' },
      });
      if (!found)
        throw new ValidationException([{ field: 'currency', message: `no exchange rate of ${currency} on or before ${day}` }]);
      return found.rate;
    };
    return crossRate(await of(from), await of(to));
  }

  /** A known currency, not the company's own; one rate a currency and day (409 DUPLICATE naming date). */
  private async checkRate(rate: ExchangeRate, id?: number): Promise<void> {
    if (!CURRENCIES.some((c) => c.code === rate.currency))
      throw ValidationException.field('currency', 'must be an ISO 4217 currency code');
    if (rate.currency === (await this.companyCurrency()))
      throw ValidationException.field('currency', 'is the company currency, whose rate is 1');
    const taken = await this.ds.getRepository(ExchangeRate).exists({
      where: { currency: rate.currency, date: rate.date, ...(id ? { id: Not(id) } : {}) },
    });
    if (taken)
      throw new DomainException('DUPLICATE', `A rate of ${rate.currency} on ${rate.date} exists already`, [
        { field: 'date', message: 'already has a rate of this currency' },
      ]);
  }

  /** The import's write: the rate of a currency and day set, created or replaced. */
  async setRate(input: { currency: string; date: string; rate: string }): Promise<ExchangeRateDto> {
    const existing = await this.ds.getRepository(ExchangeRate).findOne({ where: { currency: input.currency, date: input.date } });
    return existing ? this.rates.update(existing.id, { rate: input.rate }) : this.rates.create(input);
  }
}
