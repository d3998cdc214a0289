-- ExpenseClaimsRepository.itemsOf
SELECT "ExpenseItem"."id" AS "ExpenseItem_id", "ExpenseItem"."claim_id" AS "ExpenseItem_claim_id", "ExpenseItem"."position" AS "ExpenseItem_position", "ExpenseItem"."category_id" AS "ExpenseItem_category_id", "ExpenseItem"."date" AS "ExpenseItem_date", "ExpenseItem"."description" AS "ExpenseItem_description", "ExpenseItem"."amount" AS "ExpenseItem_amount", "ExpenseItem"."currency" AS "ExpenseItem_currency", "ExpenseItem"."rate" AS "ExpenseItem_rate", "ExpenseItem"."amount_converted" AS "ExpenseItem_amount_converted", "ExpenseItem"."receipt_document_id" AS "ExpenseItem_receipt_document_id"
  FROM "expense_items" "ExpenseItem"
  WHERE (("ExpenseItem"."claim_id" IN (1, 2)))
  ORDER BY "ExpenseItem"."claim_id" ASC, "ExpenseItem"."position" ASC;

-- ExpenseClaimsRepository.markPaid
UPDATE "expense_claims"
  SET "status" = ?, "paid_in" = 7, "paid_at" = ?, "updated_at" = CURRENT_TIMESTAMP
  WHERE ("id" IN (1, 2) AND "status" = ? AND "paid_in" IS NULL);

-- ExpenseClaimsRepository.markUnpaid
UPDATE "expense_claims"
  SET "status" = ?, "paid_in" = ?, "paid_at" = ?, "updated_at" = CURRENT_TIMESTAMP
  WHERE ("paid_in" = 7 AND "status" = ?);

-- ExpenseClaimsRepository.paidBy
SELECT "ExpenseClaim"."id" AS "ExpenseClaim_id", "ExpenseClaim"."employee_id" AS "ExpenseClaim_employee_id", "ExpenseClaim"."title" AS "ExpenseClaim_title", "ExpenseClaim"."currency" AS "ExpenseClaim_currency", "ExpenseClaim"."status" AS "ExpenseClaim_status", "ExpenseClaim"."total" AS "ExpenseClaim_total", "ExpenseClaim"."submitted_at" AS "ExpenseClaim_submitted_at", "ExpenseClaim"."decided_at" AS "ExpenseClaim_decided_at", "ExpenseClaim"."approved_on" AS "ExpenseClaim_approved_on", "ExpenseClaim"."paid_in" AS "ExpenseClaim_paid_in", "ExpenseClaim"."paid_reference" AS "ExpenseClaim_paid_reference", "ExpenseClaim"."paid_at" AS "ExpenseClaim_paid_at", "ExpenseClaim"."created_at" AS "ExpenseClaim_created_at", "ExpenseClaim"."updated_at" AS "ExpenseClaim_updated_at"
  FROM "expense_claims" "ExpenseClaim"
  WHERE (("ExpenseClaim"."paid_in" = 7))
  ORDER BY "ExpenseClaim"."id" ASC;

-- ExpenseClaimsRepository.payable
SELECT "c"."id" AS "c_id", "c"."employee_id" AS "c_employee_id", "c"."total" AS "c_total"
  FROM "expense_claims" "c"
  WHERE "c"."status" = ? AND "c"."approved_on" <= ? AND "c"."paid_in" IS NULL AND "c"."employee_id" IN (?, ?)
  ORDER BY "c_id" ASC;
