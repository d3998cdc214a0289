import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { AuthUser } from '../common/auth/auth-user';
import { byIdReader } from '../common/database/by-id-reader';
import { ErrorDetail } from '../common/errors/domain.exception';
import {
  EmployeeExtension,
  ExtensionItem,
  ExtensionListTerms,
  ExtensionReader,
  ExtensionWrite,
} from '../employees/core/employee-extensions';
import { EmployeeScope } from '../employees/core/employee-access.service';
import { EmployeesService } from '../employees/employees.service';
import { EmployeePrivacy } from './entities/employee-privacy.entity';

export const PRIVACY_PROPERTY = 'privacy';

/** Who sees and sets a legal hold: the administrators (a Manager or the employee reads null). */
const administers = (caller: AuthUser | null) =>
  caller === null || caller.level === 'Admin' || caller.level === 'Restricted Admin';

/** The employee's `privacy` as the API shows it. */
export interface PrivacyView {
  legal_hold: boolean | null;
  anonymised_at: string | null;
}

/** Ids a statement names at most. */
const CHUNK = 1000;

/**
 * The employee's `privacy` property (issue 69, docs/api/privacy.md), brought by the privacy module
 * through the employees' extension point: `{legal_hold, anonymised_at}` on GET /employees and its
 * items; `legal_hold` set by an Admin with PUT /employees/{id} (`{"privacy": {"legal_hold": true}}`);
 * `anonymised_at` read-only (sent back as the GET gave it, ignored).
 */
@Injectable()
export class EmployeePrivacyExtension implements EmployeeExtension, OnModuleInit {
  readonly property = PRIVACY_PROPERTY;
  readonly listPrefix = PRIVACY_PROPERTY;
  readonly listed = false;
  private readonly pending = new WeakMap<ExtensionWrite, boolean>();

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly employees: EmployeesService,
  ) {
    this.byId = byIdReader(ds.getRepository(EmployeePrivacy));
  }

  onModuleInit(): void {
    this.employees.extend(this);
  }

  /**
   * One employee's row outside a transaction (GET /employees/{id}): SQL built once, a prepared
   * statement (byIdReader). TypeORM's findBy took about 100 µs of CPU a read, a third of the read by
   * id's (docs/performance.md, "Performance II").
   */
  private readonly byId: (employeeId: number) => Promise<EmployeePrivacy | null>;

  async read(em: EntityManager | null, reader: ExtensionReader, employeeIds: readonly number[]): Promise<Map<number, unknown>> {
    const rows = new Map<number, EmployeePrivacy>();
    if (em === null && employeeIds.length === 1) {
      const row = await this.byId(employeeIds[0]);
      if (row) rows.set(row.employeeId, row);
    } else {
      const repo = (em ?? this.ds.manager).getRepository(EmployeePrivacy);
      for (let i = 0; i < employeeIds.length; i += CHUNK)
        for (const r of await repo.findBy({ employeeId: In(employeeIds.slice(i, i + CHUNK)) })) rows.set(r.employeeId, r);
    }
    const sees = administers(reader?.caller ?? null);
    return new Map(
      employeeIds.map((id) => {
        const r = rows.get(id);
        const view: PrivacyView = {
          legal_hold: sees ? (r?.legalHold ?? false) : null,
          anonymised_at: r?.anonymisedAt?.toISOString() ?? null,
        };
        return [id, view];
      }),
    );
  }

  async prepare(writer: ExtensionReader, items: ReadonlyArray<ExtensionItem>): Promise<ExtensionWrite[]> {
    const ids = items.flatMap((i) => (i.employeeId === undefined ? [] : [i.employeeId]));
    const current = ids.length ? await this.read(null, null, ids) : new Map<number, unknown>();
    return items.map((item) => {
      const problems: ErrorDetail[] = [];
      const value = (item.value ?? {}) as Record<string, unknown>;
      for (const key of Object.keys(value))
        if (key !== 'legal_hold' && key !== 'anonymised_at')
          problems.push({ field: `${PRIVACY_PROPERTY}.${key}`, message: 'is not a privacy field (legal_hold, anonymised_at)' });
      const hold = value.legal_hold;
      if (hold !== undefined && typeof hold !== 'boolean')
        problems.push({ field: `${PRIVACY_PROPERTY}.legal_hold`, message: 'must be a boolean' });
      const before = item.employeeId === undefined ? false : ((current.get(item.employeeId) as PrivacyView).legal_hold ?? false);
      const changes = typeof hold === 'boolean' && hold !== before;
      const changed = changes ? [`${PRIVACY_PROPERTY}.legal_hold`] : [];
      const write: ExtensionWrite = {
        changed,
        forbidden: changes && !(writer === null || writer.caller.level === 'Admin') ? changed : [],
        problems,
        apply: (em, employeeId) => this.apply(em, employeeId, write),
        explainConflict: () => Promise.resolve([]),
      };
      if (changes) this.pending.set(write, hold);
      return write;
    });
  }

  async applyMany(
    em: EntityManager,
    writes: ReadonlyArray<{ write: ExtensionWrite; employeeId: number }>,
  ): Promise<Array<{ before: Record<string, unknown>; after: Record<string, unknown> }>> {
    const out: Array<{ before: Record<string, unknown>; after: Record<string, unknown> }> = [];
    for (const { write, employeeId } of writes) out.push(await this.apply(em, employeeId, write));
    return out;
  }

  private async apply(
    em: EntityManager,
    employeeId: number,
    write: ExtensionWrite,
  ): Promise<{ before: Record<string, unknown>; after: Record<string, unknown> }> {
    const hold = this.pending.get(write);
    if (hold === undefined) return { before: {}, after: {} };
    await em.getRepository(EmployeePrivacy).upsert({ employeeId, legalHold: hold }, ['employeeId']);
    return { before: { legal_hold: !hold }, after: { legal_hold: hold } };
  }

  listTerms(
    _caller: AuthUser,
    _scope: EmployeeScope,
    filters: Record<string, unknown>,
    sortField: string | undefined,
  ): Promise<ExtensionListTerms> {
    const problems: ErrorDetail[] = Object.keys(filters).map((name) => ({
      field: `filters.${name}`,
      message: 'is not a filter',
    }));
    if (sortField !== undefined) problems.push({ field: 'sortField', message: `${sortField} is not a sort field` });
    return Promise.resolve({ joins: [], conditions: [], problems });
  }
}
