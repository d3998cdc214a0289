-- BooksRepository.cells
SELECT c.employee_id, c.column_id, c.value
  FROM payroll_cells c JOIN payrolls cr ON cr.id = c.payroll_id AND cr.cells_revision = c.revision
  WHERE c.payroll_id = ?;

-- BooksRepository.columnCells
SELECT c.employee_id, c.value
  FROM payroll_cells c JOIN payrolls cr ON cr.id = c.payroll_id AND cr.cells_revision = c.revision
  WHERE c.payroll_id = ? AND c.column_id = ?;
