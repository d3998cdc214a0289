-- PayrollRunInputsRepository.allCells
SELECT c.employee_id, c.column_id, c.value, c.edited
  FROM payroll_cells c JOIN payrolls cr ON cr.id = c.payroll_id AND cr.cells_revision = c.revision
  WHERE c.payroll_id = ?;

-- PayrollRunInputsRepository.cellEmployees
SELECT DISTINCT c.employee_id
  FROM payroll_cells c JOIN payrolls cr ON cr.id = c.payroll_id AND cr.cells_revision = c.revision
  WHERE c.payroll_id IN (?, ?)
  ORDER BY c.employee_id;

-- PayrollRunInputsRepository.cellsOf
SELECT c.employee_id, c.column_id, c.value, c.edited
  FROM payroll_cells c JOIN payrolls cr ON cr.id = c.payroll_id AND cr.cells_revision = c.revision
  WHERE c.payroll_id = ? AND c.employee_id IN (?, ?) AND (c.edited = ? OR c.column_id IN (?));

-- PayrollRunInputsRepository.cellsOfEmployees
SELECT c.employee_id, c.column_id, c.value, c.edited
  FROM payroll_cells c JOIN payrolls cr ON cr.id = c.payroll_id AND cr.cells_revision = c.revision
  WHERE c.payroll_id = ? AND c.employee_id IN (?, ?);

-- PayrollRunInputsRepository.columnSetOf
INSERT INTO "payroll_column_sets"("id", "hash", "columns", "created_at")
  VALUES (NULL, ?, ?, datetime('now'));
SELECT "PayrollColumnSet"."id" AS "PayrollColumnSet_id"
  FROM "payroll_column_sets" "PayrollColumnSet"
  WHERE (("PayrollColumnSet"."hash" = ?))
  LIMIT 1;
SELECT "PayrollColumnSet"."id" AS "PayrollColumnSet_id", "PayrollColumnSet"."created_at" AS "PayrollColumnSet_created_at"
  FROM "payroll_column_sets" "PayrollColumnSet"
  WHERE "PayrollColumnSet"."id" = 1;

-- PayrollRunInputsRepository.inputsOf
SELECT employee_id, inputs
  FROM payroll_run_inputs
  WHERE payroll_id = ? AND revision = ? AND employee_id IN (?, ?);

-- PayrollRunInputsRepository.inputsOf (whole run)
SELECT employee_id, inputs
  FROM payroll_run_inputs
  WHERE payroll_id = ? AND revision = ?;

-- PayrollRunInputsRepository.inputsOfRuns
SELECT employee_id, inputs
  FROM payroll_run_inputs
  WHERE payroll_id = ? AND revision = ? AND employee_id IN (?, ?);
