import { Injectable } from '@nestjs/common';
import { AuthUser } from '../../common/auth/auth-user';
import { Payroll } from '../entities/payroll-run.entities';
import { RowScope } from '../runs/payroll-runs.repository';
import { PayrollRunsService } from '../runs/payroll-runs.service';
import { PAYROLL_STATES } from '../runs/payroll.states';

/** The payroll a books download is made of: one the caller may read (404 otherwise), Completed (409 INVALID_STATE otherwise). */
@Injectable()
export class PayrollBooksAccess {
  constructor(private readonly runs: PayrollRunsService) {}

  async completed(caller: AuthUser, id: number): Promise<Payroll> {
    const payroll = await this.runs.visible(caller, id);
    PAYROLL_STATES.assert('books', payroll.status);
    return payroll;
  }

  /**
   * A payroll whose books made earlier the caller may read, whatever its state now: a payroll reopened
   * after its bank file was made still lists and downloads that file (404 when it may not read it).
   */
  readable(caller: AuthUser, id: number): Promise<Payroll> {
    return this.runs.visible(caller, id);
  }

  /** The caller's rows of a payroll: null for all (Admin), else the departments (Restricted Admin). */
  rowScope(caller: AuthUser): Promise<RowScope> {
    return this.runs.rowScope(caller);
  }
}
