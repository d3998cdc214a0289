import { CURRENCIES } from '../common/money/currencies';
import { declareSettings } from '../settings/settings.registry';

/** The currency the exchange rates are quoted in and the journal is kept in (issue 68, docs/api/expenses.md). */
export const COMPANY_CURRENCY = 'Company Currency';

declareSettings({
  name: COMPANY_CURRENCY,
  group: 'Expenses',
  description:
    'The company currency (ISO 4217): exchange rates are units of it per unit of another currency, and claims in other currencies convert through it.',
  default: 'EUR',
  pattern: /^[A-Z]{3}$/,
  maxLength: 3,
  check: (value) => (CURRENCIES.some((c) => c.code === value) ? null : 'must be an ISO 4217 currency code'),
});
