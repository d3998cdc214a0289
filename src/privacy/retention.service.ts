import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, Not, Repository } from 'typeorm';
import { timeSlices } from '../common/async/time-slices';
import { recordAudits } from '../common/audit/audit-log';
import { ReferenceCrud } from '../common/crud/crud';
import { transaction } from '../common/database/transaction';
import { DomainException, ValidationException } from '../common/errors/domain.exception';
import { PageQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { PersonalData } from '../common/privacy/personal-data';
import { AfterRetention, RETENTION_AUDIT_ACTION, RetentionCategory } from '../common/privacy/retention';
import { JobQueue } from '../common/queue/job-queue.service';
import { defineJob } from '../common/queue/queue.constants';
import { CompanyClock } from '../common/time/company-clock';
import { yearsBefore } from '../common/time/days';
import { EmployeesRepository } from '../employees/core/employees.repository';
import { RetentionPolicyDto, RetentionPreviewItemDto } from './dto/retention.dto';
import { EmployeePrivacy, RetentionPolicy } from './entities/employee-privacy.entity';

/** Every day: the retention policies applied (docs/api/privacy.md). */
export const RETENTION_JOB = defineJob<Record<string, never>>('schedule', 'retention');
const EVERY_MS = 24 * 3600_000;
/** Leavers read, counted and changed at a time (one transaction each; an audit policy rewrites some 600 entries of 200 leavers in 40 ms). */
const BATCH = 200;

/** One policy's due leavers in a batch, and what its category would change of each. */
interface DueBatch {
  policy: RetentionPolicy;
  category: RetentionCategory;
  counts: Map<number, number>;
}

/**
 * Retention by policy (issue 69, docs/api/privacy.md): a policy per category of personal data says
 * how many years after an employee's termination date its records are kept and what then happens
 * (anonymise or delete). The categories are declared by the modules that keep the data (common/
 * privacy PersonalData.retain). `preview` says what the daily job would do today; the job does it,
 * a batch of leavers per transaction, skipping employees under legal hold. Payroll results are in
 * no category: cells, payslip amounts, journals and bank files stay.
 */
@Injectable()
export class RetentionService implements OnModuleInit {
  readonly policies: ReferenceCrud<RetentionPolicy, RetentionPolicyDto>;
  private readonly logger = new Logger('Retention');

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @InjectRepository(RetentionPolicy) repo: Repository<RetentionPolicy>,
    private readonly personalData: PersonalData,
    private readonly employees: EmployeesRepository,
    private readonly jobs: JobQueue,
    private readonly clock: CompanyClock,
  ) {
    this.policies = new ReferenceCrud<RetentionPolicy, RetentionPolicyDto>({
      label: 'Retention policy',
      resource: 'retention-policies',
      repo,
      fields: { category: 'category', keep_years: 'keepYears', action: 'action' },
      uniqueName: false,
      listSpec: { sortFields: { id: 'r.id', category: 'r.category' }, searchColumns: ['r.category'] },
      check: async (policy, id) => {
        const known = [...this.personalData.retentionCategories().keys()];
        if (!known.includes(policy.category))
          throw ValidationException.field('category', `must be one of: ${known.sort().join(', ')}`);
        if (await repo.exists({ where: { category: policy.category, ...(id ? { id: Not(id) } : {}) } }))
          throw new DomainException('DUPLICATE', `A retention policy for ${policy.category} exists`, [
            { field: 'category', message: 'has a policy already' },
          ]);
      },
    });
  }

  onModuleInit(): void {
    this.jobs.register(RETENTION_JOB, async () => {
      const done = await this.apply();
      if (done.records) this.logger.log(`retention: ${done.records} records of ${done.employees} leavers`);
    });
    void this.jobs.schedule(RETENTION_JOB, EVERY_MS);
  }

  /** GET /retention/preview: what the daily job would do today, per leaver and category, in employee order. */
  async preview(query: PageQueryDto): Promise<Page<RetentionPreviewItemDto>> {
    const items: RetentionPreviewItemDto[] = [];
    await this.dueBatches(this.ds.manager, (batch) => {
      for (const [employee, records] of batch.counts)
        items.push({ employee, category: batch.policy.category, action: batch.policy.action, records });
    });
    items.sort((a, b) => a.employee - b.employee || a.category.localeCompare(b.category));
    if (query.sortOrder === 'descend') items.reverse();
    const from = (query.page - 1) * query.limit;
    return new Page(items.slice(from, from + query.limit), items.length, query.page, query.limit);
  }

  /** The daily job: every due policy's action on its leavers, a batch per transaction, each change audited. */
  async apply(): Promise<{ employees: number; records: number }> {
    const employees = new Set<number>();
    let records = 0;
    const afters: AfterRetention[] = [];
    await this.dueBatches(this.ds.manager, async (batch) => {
      const ids = [...batch.counts.keys()];
      const done = await transaction(this.ds, async (em) => {
        const result = await batch.category.apply(em, ids, batch.policy.action);
        await recordAudits(
          em,
          ids.map((id) => ({
            action: RETENTION_AUDIT_ACTION,
            resource: 'employees',
            resourceId: id,
            employee: id,
            after: { category: batch.policy.category, action: batch.policy.action, records: batch.counts.get(id) },
          })),
        );
        return result;
      });
      if (done.after) afters.push(done.after);
      records += done.records;
      for (const id of ids) employees.add(id);
    });
    for (const after of afters) await after().catch((err: Error) => this.logger.warn(`after retention: ${err.message}`));
    return { employees: employees.size, records };
  }

  /**
   * Each policy's leavers due today (terminated `keep_years` or more years ago, not under legal
   * hold) with what its category would change of them, a batch of leavers at a time; leavers
   * with nothing left to change are left out.
   */
  private async dueBatches(em: EntityManager, each: (batch: DueBatch) => unknown): Promise<void> {
    const categories = this.personalData.retentionCategories();
    const policies = (await em.getRepository(RetentionPolicy).find({ order: { id: 'ASC' } })).filter((p) =>
      categories.has(p.category),
    );
    if (!policies.length) return;
    const today = await this.clock.today();
    const cutoffs = new Map(policies.map((p) => [p.id, yearsBefore(today, p.keepYears)]));
    const latest = [...cutoffs.values()].sort().at(-1)!;
    // On the embedded database every statement completes at once: without a pause no timer or request would run until the end.
    const slices = timeSlices();
    for (let after = 0; ;) {
      const leavers = await this.employees.leavers(latest, after, BATCH);
      if (!leavers.length) return;
      after = leavers[leavers.length - 1].id;
      const held = new Set(
        (
          await em.getRepository(EmployeePrivacy).find({
            where: { employeeId: In(leavers.map((l) => l.id)), legalHold: true },
            select: { employeeId: true },
          })
        ).map((p) => p.employeeId),
      );
      for (const policy of policies) {
        const cutoff = cutoffs.get(policy.id)!;
        const ids = leavers.filter((l) => l.terminated <= cutoff && !held.has(l.id)).map((l) => l.id);
        if (!ids.length) continue;
        const category = categories.get(policy.category)!;
        const counts = await category.count(em, ids, policy.action);
        if (counts.size) await each({ policy, category, counts });
        if (slices.due()) await slices.pause();
      }
      if (leavers.length < BATCH) return;
    }
  }
}
