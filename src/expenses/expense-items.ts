import Decimal from 'decimal.js';
import { ErrorDetail } from '../common/errors/domain.exception';
import { minorUnitOf } from '../common/money/currencies';
import { toFixedText } from '../common/money/money';
import { ExpenseItemDto, ExpenseItemInputDto } from './dto/expense-claims.dto';
import { ExpenseCategory, ExpenseClaim, ExpenseItem } from './entities/expense.entities';
import { convert } from './exchange-rates';

/** An amount as the API shows it: to its currency's minor unit ("12.5" EUR → "12.50", JPY → "1200"). */
export const shown = (amount: string, currency: string): string => toFixedText(amount, minorUnitOf(currency));

export function toItemDto(i: ExpenseItem, claimCurrency: string): ExpenseItemDto {
  return {
    id: i.id,
    category: i.categoryId,
    date: i.date,
    description: i.description,
    amount: shown(i.amount, i.currency),
    currency: i.currency,
    rate: new Decimal(i.rate).toFixed(),
    amount_converted: shown(i.amountConverted, claimCurrency),
    receipt: i.receiptDocumentId,
  };
}

/** The claim's own fields as the audit and its events record them (the items by their converted amounts). */
export function claimFacts(c: ExpenseClaim): Record<string, unknown> {
  return {
    title: c.title,
    status: c.status,
    total: shown(c.total, c.currency),
    paid_in: c.paidIn,
    paid_reference: c.paidReference,
  };
}

/**
 * The problems of items as written (400 naming `items.N.*`): categories that do not exist, item ids
 * not of the claim, more decimals than the currency has.
 */
export function itemProblems(
  items: readonly ExpenseItemInputDto[],
  categories: ReadonlyMap<number, ExpenseCategory>,
  ownIds: ReadonlySet<number>,
  claimCurrency: string,
): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const seen = new Set<number>();
  items.forEach((item, n) => {
    if (!categories.has(item.category)) problems.push({ field: `items.${n}.category`, message: 'does not exist' });
    if (item.id !== undefined) {
      if (!ownIds.has(item.id)) problems.push({ field: `items.${n}.id`, message: 'is not an item of this claim' });
      else if (seen.has(item.id)) problems.push({ field: `items.${n}.id`, message: 'is named twice' });
      seen.add(item.id);
    }
    const currency = item.currency ?? claimCurrency;
    const decimals = item.amount.split('.')[1]?.length ?? 0;
    if (decimals > minorUnitOf(currency))
      problems.push({ field: `items.${n}.amount`, message: `has more decimals than ${currency} has (${minorUnitOf(currency)})` });
  });
  return problems;
}

/** Problems that refuse a submit: no items, an item above its category's ceiling, a required receipt missing. */
export function submitProblems(
  claim: ExpenseClaim,
  items: readonly ExpenseItem[],
  categories: ReadonlyMap<number, ExpenseCategory>,
): ErrorDetail[] {
  if (!items.length) return [{ field: 'items', message: 'a claim needs at least one item to be submitted' }];
  const problems: ErrorDetail[] = [];
  items.forEach((item, n) => {
    const category = categories.get(item.categoryId);
    if (!category) return;
    if (category.maxAmount !== null && new Decimal(item.amountConverted).gt(category.maxAmount))
      problems.push({
        field: `items.${n}.amount`,
        message: `${shown(item.amountConverted, claim.currency)} ${claim.currency} is above the most ${category.name} allows per item (${category.maxAmount})`,
      });
    if (category.requiresReceipt && item.receiptDocumentId === null)
      problems.push({ field: `items.${n}.receipt`, message: `${category.name} needs a receipt: upload it first` });
  });
  return problems;
}

/** An item's row from what was written, converted at `rate` into the claim's currency. */
export function itemRow(input: ExpenseItemInputDto, position: number, claim: ExpenseClaim, rate: string, receipt: number | null) {
  const currency = input.currency ?? claim.currency;
  return {
    claimId: claim.id,
    position,
    categoryId: input.category,
    date: input.date,
    description: input.description,
    amount: input.amount,
    currency,
    rate,
    amountConverted: convert(input.amount, rate, claim.currency),
    receiptDocumentId: receipt,
  };
}

/** Σ of converted amounts, to the claim currency's minor unit. */
export function totalOf(amounts: readonly string[], currency: string): string {
  return amounts.reduce((sum, a) => sum.plus(a), new Decimal(0)).toFixed(minorUnitOf(currency));
}
