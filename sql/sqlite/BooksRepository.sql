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
