import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Not, Repository } from 'typeorm';
import { AuthUser } from '../../common/auth/auth-user';
import { DomainException, NotFoundException } from '../../common/errors/domain.exception';
import { pageOf } from '../../common/paging/list-request';
import { Page } from '../../common/paging/page';
import { SavePayrollColumnDto } from '../dto/payroll-config.dto';
import { PayrollDiffRowDto, PreviewChangeQueryDto } from '../dto/payroll-explain.dto';
import { planColumns } from '../engine/payroll-engine';
import { Payroll, PayrollCell } from '../entities/payroll-run.entities';
import { PayrollConfigService } from '../config/payroll-config.service';
import { cellMap, DiffSide } from './payroll-diff';
import { PayrollDiffService } from './payroll-diff.service';
import { diffPage } from './diff-table';
import { PayrollInputsService } from '../runs/payroll-inputs.service';
import { PayrollProcessingService } from '../runs/payroll-processing.service';
import { PayrollRunsService } from '../runs/payroll-runs.service';
import { cellsOf } from '../runs/run-inputs';
import { EmployeeInputs } from '../engine/stored-inputs';
import { engineColumnOf } from '../config/payroll-columns';

/**
 * POST /payroll_config/payroll-columns/preview-change (docs/api/decisions.md §18): the diff a column change would
 * make on a processed run, without saving it. The run is computed again from its stored inputs
 * with the proposed column in place of the stored one (edits kept; a changed hook read for the
 * run's period, as processing would), then compared with what it stored.
 */
@Injectable()
export class PayrollPreviewService {
  constructor(
    private readonly config: PayrollConfigService,
    private readonly runs: PayrollRunsService,
    private readonly differ: PayrollDiffService,
    private readonly processing: PayrollProcessingService,
    private readonly inputs: PayrollInputsService,
    @InjectRepository(Payroll) private readonly payrolls: Repository<Payroll>,
  ) {}

  async preview(caller: AuthUser, dto: SavePayrollColumnDto, query: PreviewChangeQueryDto): Promise<Page<PayrollDiffRowDto>> {
    const proposed = await this.config.proposeColumn(dto);
    const run = query.payroll ? await this.runs.visible(caller, query.payroll) : await this.lastProcessed();
    const stored = await this.differ.side(run);
    const current = stored.columns.find((c) => c.id === proposed.id);
    // A column the run does not have changes nothing of it (no other of its columns can read it).
    if (!current) return pageOf([], query);
    const columns = stored.columns.map((c) => (c.id === proposed.id ? { ...proposed, colorder: c.colorder } : c));
    const { errors } = planColumns(columns.map(engineColumnOf));
    if (errors.length)
      throw new DomainException(
        'INVALID_STATE',
        `Payroll ${run.id}'s columns cannot be computed with this change: ${errors.map((e) => e.message).join('; ')}`,
      );
    const employeeIds = [...stored.cells.keys()];
    let employees: ReadonlyMap<number, EmployeeInputs> = stored.inputs;
    const hookChanged =
      proposed.calculation_hook !== null &&
      (proposed.calculation_hook !== current.calculation_hook ||
        JSON.stringify(proposed.calculation_hook_args) !== JSON.stringify(current.calculation_hook_args));
    if (hookChanged) {
      const hook = { id: proposed.id, hook: proposed.calculation_hook as string, args: proposed.calculation_hook_args };
      const values = (await this.inputs.hookInputs([hook], employeeIds, run.dateStart, run.dateEnd)).get(proposed.id);
      employees = new Map(
        [...stored.inputs].map(([id, i]) => [
          id,
          { ...i, hooks: { ...i.hooks, [String(proposed.id)]: values?.get(id) ?? { value: null } } },
        ]),
      );
    }
    const edited: PayrollCell[] = [];
    for (const [employee, cells] of stored.cells)
      for (const [column, cell] of cells)
        if (cell.edited)
          edited.push(Object.assign(new PayrollCell(), { employeeId: employee, columnId: column, value: cell.value }));
    const tables = await this.processing.tablesOf(run, columns);
    const result = await this.processing.computeFrom({ columns, employees, tables }, employeeIds, edited);
    // The cells a processing would write: computed, flagged edited where an edit was kept.
    const after: DiffSide = {
      columns,
      inputs: employees,
      cells: cellMap(cellsOf(result, edited)),
      tables: [...tables.values()].map((t) => t.used),
    };
    // The Admin's (who alone changes columns): every row.
    const table = await this.differ.rowsOf(stored, after, null);
    return diffPage(table, table.select({ visible: null }), query);
  }

  /** The newest run processed since runs keep their inputs. */
  private async lastProcessed(): Promise<Payroll> {
    const found = await this.payrolls.findOne({
      where: { status: In(['Processed', 'Completed']), inputsRevision: Not(IsNull()) },
      order: { processedAt: 'DESC', id: 'DESC' },
    });
    if (!found) throw new NotFoundException('A processed payroll to preview on');
    return found;
  }
}
