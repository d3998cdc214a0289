import { declareApprovalKind } from '../approvals/kinds/approval-kinds';

/**
 * Expense claims go through approval chains (issue 68): a policy of kind `expense` may ask for more
 * steps above an amount (`min_amount`, compared with the claim's total in the company currency).
 */
declareApprovalKind({
  kind: 'expense',
  noun: 'expense claim',
  path: 'expense-claims',
  taskSource: 'expense-approval',
  conditions: ['min_amount', 'departments'],
});
