import { Injectable } from '@nestjs/common';
import { AuthUser } from '../../common/auth/auth-user';
import { DomainException } from '../../common/errors/domain.exception';
import { Payroll } from '../entities/payroll-run.entities';
import { RowScope } from '../runs/payroll-runs.repository';
import { PayrollRunsService } from '../runs/payroll-runs.service';

/** The payroll a books download is of: one the caller may read (404 otherwise), Completed (409 INVALID_STATE otherwise). */
@Injectable()
export class PayrollBooksAccess {
  constructor(private readonly runs: PayrollRunsService) {}

  async completed(caller: AuthUser, id: number): Promise<Payroll> {
    const payroll = await this.runs.visible(caller, id);
    if (payroll.status !== 'Completed')
      throw new DomainException('INVALID_STATE', `Payroll ${id} is ${payroll.status}: its books are made once it is Completed`);
    return payroll;
  }

  /** The caller's rows of a payroll: null for all (Admin), else the departments (Restricted Admin). */
  rowScope(caller: AuthUser): Promise<RowScope> {
    return this.runs.rowScope(caller);
  }
}
