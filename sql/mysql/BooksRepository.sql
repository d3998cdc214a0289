-- BooksRepository.bankFilesPaying
SELECT `f`.`id` AS `f_id`, `f`.`payroll_id` AS `f_payroll_id`, `f`.`revision` AS `f_revision`, `f`.`format` AS `f_format`, `f`.`execution_date` AS `f_execution_date`, `f`.`skip_missing` AS `f_skip_missing`, `f`.`msg_id` AS `f_msg_id`, `f`.`sha256` AS `f_sha256`, `f`.`transactions` AS `f_transactions`, `f`.`total` AS `f_total`, `f`.`storage_key` AS `f_storage_key`, `f`.`size` AS `f_size`, `f`.`created_by` AS `f_created_by`, `f`.`created_at` AS `f_created_at`
  FROM `payroll_bank_files` `f`
  WHERE EXISTS (SELECT 1
  FROM payroll_cells c
  WHERE c.payroll_id = `f`.`payroll_id` AND c.employee_id = ?)
  ORDER BY `f`.`id` ASC;

-- BooksRepository.cellsBetween
SELECT c.employee_id, c.column_id, c.value
  FROM payroll_cells c JOIN payrolls cr ON cr.id = c.payroll_id AND cr.cells_revision = c.revision
  WHERE c.payroll_id = ? AND c.employee_id BETWEEN ? AND ?;

-- BooksRepository.columnCellsAfter
SELECT c.employee_id, c.value
  FROM payroll_cells c JOIN payrolls cr ON cr.id = c.payroll_id AND cr.cells_revision = c.revision
  WHERE c.payroll_id = ? AND c.column_id = ? AND c.employee_id > ?
  ORDER BY c.employee_id
  LIMIT ?;

-- BooksRepository.employeesAfter
SELECT DISTINCT c.employee_id
  FROM payroll_cells c JOIN payrolls cr ON cr.id = c.payroll_id AND cr.cells_revision = c.revision
  WHERE c.payroll_id = ? AND c.employee_id > ?
  ORDER BY c.employee_id
  LIMIT ?;
