import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { recordAudit } from '../common/audit/audit-log';
import { AuthUser } from '../common/auth/auth-user';
import { DomainException } from '../common/errors/domain.exception';
import { AfterAnonymisation, AnonymisedSubject, PersonalData, searchable } from '../common/privacy/personal-data';
import { CompanyClock } from '../common/time/company-clock';
import { toWholeSecond } from '../common/time/instants';
import { EmployeeAccessService } from '../employees/core/employee-access.service';
import { withEmployeeLock } from '../employees/core/employee-lock';
import { AnonymisedDto } from './dto/privacy.dto';
import { EmployeePrivacy } from './entities/employee-privacy.entity';
import './privacy.events';

/** What the person's names become. */
export const formerName = (employeeId: number) => `Former employee ${employeeId}`;

/**
 * Anonymisation of a leaver (issue 69, docs/api/privacy.md): every module's personal data of the
 * employee (common/privacy PersonalData: the holders each module registers) anonymised in one
 * transaction under the employee's lock, so that a crash leaves it untouched or anonymised, never
 * half; files are removed from the store after the commit by the removal job. Payroll results,
 * employment facts and counts stay.
 */
@Injectable()
export class PrivacyService {
  private readonly logger = new Logger('Privacy');

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly access: EmployeeAccessService,
    private readonly personalData: PersonalData,
    private readonly clock: CompanyClock,
  ) {}

  /** POST /employees/{id}/anonymise (an Admin): a Terminated employee not under legal hold, once. */
  async anonymise(caller: AuthUser, employeeId: number): Promise<AnonymisedDto> {
    await this.access.visible(caller, employeeId);
    const afters: AfterAnonymisation[] = [];
    // What holders wrote outside the database for an attempt that did not commit.
    const undos: AfterAnonymisation[] = [];
    const undo = async () => {
      for (const u of undos.splice(0))
        await u().catch((err: Error) => this.logger.warn(`undoing an attempt to anonymise ${employeeId}: ${err.message}`));
    };
    let at: Date;
    try {
      at = await withEmployeeLock(this.ds, employeeId, async (em) => {
        afters.length = 0; // a deadlock victim runs again
        await undo();
        await this.assertAnonymisable(em, employeeId);
        const subject = await this.subjectOf(em, employeeId);
        // Whole seconds: what a DATETIME column keeps on MariaDB, so the answer and a later read agree.
        const now = toWholeSecond(this.clock.now());
        await em.getRepository(EmployeePrivacy).upsert({ employeeId, anonymisedAt: now }, ['employeeId']);
        await recordAudit(em, {
          action: 'anonymise',
          resource: 'employees',
          event: 'employee.anonymised',
          resourceId: employeeId,
          employee: employeeId,
          before: { anonymised_at: null },
          after: { anonymised_at: now.toISOString() },
        });
        for (const holder of this.personalData.all()) {
          const done = await holder.anonymise?.(em, subject);
          if (typeof done === 'function') afters.push(done);
          else if (done) {
            if (done.afterCommit) afters.push(done.afterCommit);
            if (done.ifRolledBack) undos.push(done.ifRolledBack);
          }
        }
        return now;
      });
    } catch (err) {
      await undo();
      throw err;
    }
    for (const after of afters)
      await after().catch((err: Error) => this.logger.warn(`after anonymising ${employeeId}: ${err.message}`));
    return { id: employeeId, name: formerName(employeeId), anonymised_at: at.toISOString() };
  }

  /** 409 naming why the employee cannot be anonymised: not Terminated, under legal hold, or anonymised already. */
  private async assertAnonymisable(em: EntityManager, employeeId: number): Promise<void> {
    // Read under the employee's lock: no write of the employee runs meanwhile.
    const employee = (await this.access.employee(employeeId))!;
    const privacy = await em.getRepository(EmployeePrivacy).findOneBy({ employeeId });
    if (privacy?.anonymisedAt)
      throw new DomainException('CONFLICT', `Employee ${employeeId} was anonymised on ${privacy.anonymisedAt.toISOString()}`, [
        { field: 'anonymised_at', message: 'already anonymised' },
      ]);
    if (employee.status !== 'Terminated')
      throw new DomainException(
        'INVALID_STATE',
        `Only a Terminated employee is anonymised; employee ${employeeId} is ${employee.status}`,
        [{ field: 'status', message: employee.status }],
      );
    if (privacy?.legalHold)
      throw new DomainException('CONFLICT', `Employee ${employeeId} is under legal hold`, [
        { field: 'legal_hold', message: 'the employee is under legal hold' },
      ]);
  }

  /** The employee's personal values and keys as every holder finds them, before anything changes. */
  private async subjectOf(em: EntityManager, employeeId: number): Promise<AnonymisedSubject> {
    const values: Array<string | null | undefined> = [];
    for (const holder of this.personalData.all()) if (holder.values) values.push(...(await holder.values(em, employeeId)));
    const keys = await this.personalData.keysNow(em);
    const name = formerName(employeeId);
    return { employeeId, name, values: searchable(values).filter((v) => !name.includes(v)), keys };
  }
}
