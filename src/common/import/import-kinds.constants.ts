/** The kinds of import (docs/api/decisions.md §13). */
export const IMPORT_KIND_NAMES = [
  'employees',
  'salaries',
  'payroll-employees',
  'leave-entitlements',
  'leave-balances',
  'attendance',
  'payroll-data',
  'employment-history',
  'bank-accounts',
] as const;
export type ImportKindName = (typeof IMPORT_KIND_NAMES)[number];
