/**
 * A payroll's cells as its readers see them: those of the revision its last finished run wrote
 * (Payroll.cellsRevision). A run in chunks writes the next revision's cells beside them (issue 70,
 * docs/api/payroll.md "Processing in chunks"); they become the payroll's in the run's last step.
 * `FROM ${CURRENT_CELLS}` binds the alias `c`.
 */
export const CURRENT_CELLS = 'payroll_cells c JOIN payrolls cr ON cr.id = c.payroll_id AND cr.cells_revision = c.revision';
