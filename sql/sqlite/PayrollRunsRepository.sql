-- PayrollRunsRepository.cellEmployees
SELECT DISTINCT "c"."employee_id" AS "employee"
  FROM "payroll_cells" "c"
  INNER JOIN "payrolls" "cr" ON "cr"."id" = "c"."payroll_id" AND "cr"."cells_revision" = "c"."revision"
  WHERE "c"."payroll_id" = 1 AND "c"."employee_id" IN (?, ?) AND "c"."employee_id" IN (SELECT scope_e.id
  FROM employees scope_e
  WHERE scope_e.department_id IN (?, ?));

-- PayrollRunsRepository.cellValues
SELECT c.employee_id, c.column_id, c.value
  FROM payroll_cells c JOIN payrolls cr ON cr.id = c.payroll_id AND cr.cells_revision = c.revision
  WHERE c.payroll_id = ? AND c.employee_id IN (?, ?);

-- PayrollRunsRepository.editedCells
SELECT c.employee_id, c.column_id, c.value
  FROM payroll_cells c JOIN payrolls cr ON cr.id = c.payroll_id AND cr.cells_revision = c.revision
  WHERE c.payroll_id = ? AND c.employee_id BETWEEN ? AND ? AND c.employee_id IN (?, ?) AND c.edited = ?;

-- PayrollRunsRepository.errors
SELECT "x"."id" AS "x_id", "x"."payroll_id" AS "x_payroll_id", "x"."revision" AS "x_revision", "x"."employee_id" AS "x_employee_id", "x"."column_id" AS "x_column_id", "x"."message" AS "x_message"
  FROM "payroll_errors" "x"
  INNER JOIN "payrolls" "xr" ON "xr"."id" = "x"."payroll_id" AND "xr"."cells_revision" = "x"."revision"
  WHERE "x"."payroll_id" = 1 AND ("x"."employee_id" IS NULL OR "x"."employee_id" IN (SELECT scope_e.id
  FROM employees scope_e
  WHERE scope_e.department_id IN (?, ?)))
  ORDER BY "x"."id" ASC
  LIMIT 50 OFFSET 0;
SELECT COUNT(*) AS "total"
  FROM "payroll_errors" "x"
  INNER JOIN "payrolls" "xr" ON "xr"."id" = "x"."payroll_id" AND "xr"."cells_revision" = "x"."revision"
  WHERE "x"."payroll_id" = 1 AND ("x"."employee_id" IS NULL OR "x"."employee_id" IN (SELECT scope_e.id
  FROM employees scope_e
  WHERE scope_e.department_id IN (?, ?)));

-- PayrollRunsRepository.insertCells
INSERT INTO payroll_cells (payroll_id, revision, employee_id, column_id, value, edited)
  VALUES (?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?);

-- PayrollRunsRepository.insertErrors
INSERT INTO "payroll_errors"("id", "payroll_id", "revision", "employee_id", "column_id", "message")
  VALUES (NULL, 1, 2, 1, 2, ?);
SELECT "PayrollError"."id" AS "PayrollError_id", "PayrollError"."revision" AS "PayrollError_revision"
  FROM "payroll_errors" "PayrollError"
  WHERE "PayrollError"."id" = 2;

-- PayrollRunsRepository.insertPayslips
INSERT INTO "payslips"("id", "payroll_id", "employee_id", "html", "document_id", "delivery_status", "delivered_at", "delivery_error", "created_at")
  VALUES (NULL, 1, 1, ?, NULL, 'not_sent', NULL, NULL, datetime('now'));
SELECT "Payslip"."id" AS "Payslip_id", "Payslip"."delivery_status" AS "Payslip_delivery_status", "Payslip"."created_at" AS "Payslip_created_at"
  FROM "payslips" "Payslip"
  WHERE "Payslip"."id" = 1;

-- PayrollRunsRepository.payrolls
SELECT "p"."id" AS "p_id", "p"."name" AS "p_name", "p"."pay_period" AS "p_pay_period", "p"."department_id" AS "p_department_id", "p"."deduction_group_id" AS "p_deduction_group_id", "p"."date_start" AS "p_date_start", "p"."date_end" AS "p_date_end", "p"."proration" AS "p_proration", "p"."columns" AS "p_columns", "p"."payslip_template_id" AS "p_payslip_template_id", "p"."status" AS "p_status", "p"."progress" AS "p_progress", "p"."error" AS "p_error", "p"."processing_started_at" AS "p_processing_started_at", "p"."claim" AS "p_claim", "p"."processed_at" AS "p_processed_at", "p"."completed_at" AS "p_completed_at", "p"."created_at" AS "p_created_at", "p"."column_set_id" AS "p_column_set_id", "p"."inputs_revision" AS "p_inputs_revision", "p"."table_versions" AS "p_table_versions", "p"."revision" AS "p_revision", "p"."cells_revision" AS "p_cells_revision", "p"."run_revision" AS "p_run_revision", "p"."net_column_id" AS "p_net_column_id"
  FROM "payrolls" "p"
  WHERE "p"."department_id" IN (?, ?) AND ("p"."status" IN (?))
  ORDER BY "p"."date_start" DESC, "p"."id" DESC
  LIMIT 50 OFFSET 0;
SELECT COUNT(*) AS "total"
  FROM "payrolls" "p"
  WHERE "p"."department_id" IN (?, ?) AND ("p"."status" IN (?));

-- PayrollRunsRepository.payslipsOfEmployee
SELECT "s"."id" AS "s_id", "s"."payroll_id" AS "s_payroll_id", "s"."employee_id" AS "s_employee_id", "s"."html" AS "s_html", "s"."document_id" AS "s_document_id", "s"."delivery_status" AS "s_delivery_status", "s"."delivered_at" AS "s_delivered_at", "s"."delivery_error" AS "s_delivery_error", "s"."created_at" AS "s_created_at"
  FROM "payslips" "s"
  WHERE "s"."employee_id" = 1
  ORDER BY "s"."id" DESC
  LIMIT 50 OFFSET 0;
SELECT COUNT(*) AS "total"
  FROM "payslips" "s"
  WHERE "s"."employee_id" = 1;

-- PayrollRunsRepository.payslipsOfPayroll
SELECT "s"."id" AS "s_id", "s"."payroll_id" AS "s_payroll_id", "s"."employee_id" AS "s_employee_id", "s"."html" AS "s_html", "s"."document_id" AS "s_document_id", "s"."delivery_status" AS "s_delivery_status", "s"."delivered_at" AS "s_delivered_at", "s"."delivery_error" AS "s_delivery_error", "s"."created_at" AS "s_created_at"
  FROM "payslips" "s"
  WHERE "s"."payroll_id" = 1 AND "s"."employee_id" IN (SELECT scope_e.id
  FROM employees scope_e
  WHERE scope_e.department_id IN (?, ?))
  ORDER BY "s"."id" ASC
  LIMIT 50 OFFSET 0;
SELECT COUNT(*) AS "total"
  FROM "payslips" "s"
  WHERE "s"."payroll_id" = 1 AND "s"."employee_id" IN (SELECT scope_e.id
  FROM employees scope_e
  WHERE scope_e.department_id IN (?, ?));

-- PayrollRunsRepository.replaceErrors
DELETE
  FROM "payroll_errors"
  WHERE ("payroll_id" = 1 AND "revision" = 2);
INSERT INTO "payroll_errors"("id", "payroll_id", "revision", "employee_id", "column_id", "message")
  VALUES (NULL, 1, 2, 1, 2, ?);
SELECT "PayrollError"."id" AS "PayrollError_id", "PayrollError"."revision" AS "PayrollError_revision"
  FROM "payroll_errors" "PayrollError"
  WHERE "PayrollError"."id" = 1;

-- PayrollRunsRepository.selectedIds
SELECT "p"."employee_id" AS "employee"
  FROM "payroll_employees" "p"
  INNER JOIN "employees" "je" ON "je"."id" = "p"."employee_id"
  LEFT JOIN "employment_segments" "jg" ON "jg"."employee_id" = "je"."id" AND "jg"."effective_from" <= ? AND ("jg"."effective_to" IS NULL OR "jg"."effective_to" >= ?)
  WHERE "p"."pay_frequency_id" = 1 AND "p"."deduction_group_id" = 1 AND "je"."joined_date" <= ? AND ("je"."termination_date" >= ? OR ("je"."termination_date" IS NULL AND "je"."status" = 'Active')) AND CASE WHEN "jg"."employee_id" IS NULL THEN "je"."department_id" ELSE "jg"."department_id" END IN (?, ?)
  ORDER BY "p"."employee_id" ASC;

-- PayrollRunsRepository.selectedPage
SELECT "p"."id" AS "p_id", "p"."employee_id" AS "p_employee_id", "p"."pay_frequency_id" AS "p_pay_frequency_id", "p"."currency" AS "p_currency", "p"."deduction_group_id" AS "p_deduction_group_id"
  FROM "payroll_employees" "p"
  INNER JOIN "employees" "je" ON "je"."id" = "p"."employee_id"
  LEFT JOIN "employment_segments" "jg" ON "jg"."employee_id" = "je"."id" AND "jg"."effective_from" <= ? AND ("jg"."effective_to" IS NULL OR "jg"."effective_to" >= ?)
  WHERE "p"."pay_frequency_id" = 1 AND "p"."deduction_group_id" = 1 AND "je"."joined_date" <= ? AND ("je"."termination_date" >= ? OR ("je"."termination_date" IS NULL AND "je"."status" = 'Active')) AND CASE WHEN "jg"."employee_id" IS NULL THEN "je"."department_id" ELSE "jg"."department_id" END IN (?, ?)
  ORDER BY "je"."last_name" ASC, "p"."id" ASC
  LIMIT 50 OFFSET 0;
SELECT COUNT(*) AS "total"
  FROM "payroll_employees" "p"
  INNER JOIN "employees" "je" ON "je"."id" = "p"."employee_id"
  LEFT JOIN "employment_segments" "jg" ON "jg"."employee_id" = "je"."id" AND "jg"."effective_from" <= ? AND ("jg"."effective_to" IS NULL OR "jg"."effective_to" >= ?)
  WHERE "p"."pay_frequency_id" = 1 AND "p"."deduction_group_id" = 1 AND "je"."joined_date" <= ? AND ("je"."termination_date" >= ? OR ("je"."termination_date" IS NULL AND "je"."status" = 'Active')) AND CASE WHEN "jg"."employee_id" IS NULL THEN "je"."department_id" ELSE "jg"."department_id" END IN (?, ?);

-- PayrollRunsRepository.templates
SELECT "t"."id" AS "t_id", "t"."name" AS "t_name", "t"."status" AS "t_status", "t"."content" AS "t_content"
  FROM "payslip_templates" "t"
  ORDER BY "t"."id" ASC
  LIMIT 50 OFFSET 0;
SELECT COUNT(*) AS "total"
  FROM "payslip_templates" "t";

-- PayrollRunsRepository.updateCells
UPDATE "payroll_cells"
  SET "value" = CASE WHEN "employee_id" = 1 AND "column_id" = 1 THEN ? WHEN "employee_id" = 1 AND "column_id" = 2 THEN ? ELSE "value" END, "edited" = CASE WHEN ("employee_id" = 1 AND "column_id" = 1) THEN 1 ELSE "edited" END
  WHERE "payroll_id" = 1 AND "employee_id" IN (?) AND "revision" = (SELECT "cells_revision"
  FROM "payrolls"
  WHERE "id" = 1);
