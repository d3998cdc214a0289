import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuthUser } from '../../common/auth/auth-user';
import { ErrorDetail, ValidationException } from '../../common/errors/domain.exception';
import { Condition, KeyedOrder, ListSpec } from '../../common/paging/list-request';
import { exportPageSize } from '../../common/paging/export-paging';
import { EmployeeListQueryDto } from '../dto/employee.dto';
import { EmployeeScope } from './employee-access.service';
import { EmployeeExtension, ExtensionColumn, ExtensionReader, ExtensionWrite, extraOf, ExtraValues } from './employee-extensions';
import { EmploymentSegment } from '../entities/employment-history.entities';
import { EmployeesRepository } from './employees.repository';
import { EmployeeHooks } from './employee-hooks';

/** The writes of every extension property a body names, as one. */
export interface ExtensionWrites {
  changed: string[];
  forbidden: string[];
  problems: ErrorDetail[];
  /** The dated values among them, by property (EmployeeExtension.dated). */
  dated: ExtraValues;
  /** Identities of unique values among them (ExtensionWrite.unique: `<key>:<digest>`), prefixed by `<property>.`. */
  unique: string[];
  /** Each extension's own write. */
  parts: readonly WritePart[];
  /** Writes them in the employee's transaction: the audit's before and after, by property. */
  apply(em: EntityManager, employeeId: number): Promise<{ before: Record<string, unknown>; after: Record<string, unknown> }>;
  /** After a unique violation: 400 when one of these writes took a taken value. */
  explainConflict(employeeId: number | undefined): Promise<void>;
}

/** One extension's write within ExtensionWrites. */
interface WritePart {
  ext: EmployeeExtension;
  write: ExtensionWrite;
}

/** The extensions' writes of one body as one (`apply`: how it is written alone). */
function combined(parts: readonly WritePart[], apply: ExtensionWrites['apply']): ExtensionWrites {
  const writes = parts.map((p) => p.write);
  return {
    parts,
    changed: writes.flatMap((w) => w.changed),
    forbidden: writes.flatMap((w) => w.forbidden),
    problems: writes.flatMap((w) => w.problems),
    unique: parts.flatMap(({ ext, write }) => (write.unique ?? []).map((u) => `${ext.property}.${u}`)),
    dated: Object.fromEntries(
      parts.flatMap(({ ext, write }) => (write.dated && Object.keys(write.dated).length ? [[ext.property, write.dated]] : [])),
    ),
    apply,
    async explainConflict(id) {
      const problems = (await Promise.all(writes.map((w) => w.explainConflict(id)))).flat();
      if (problems.length) throw new ValidationException(problems);
    },
  };
}

/** A change's checked dated values of the extensions (EmployeeExtensionPoints.datedCheck). */
export interface DatedChecks {
  extra: ExtraValues;
  problems: ErrorDetail[];
  forbidden: string[];
}

/** A list request's share of the extensions: the query without their filters, the spec with their sort, their joins and conditions. */
export interface ExtendedList {
  query: EmployeeListQueryDto;
  spec: ListSpec;
  joins: string[];
  conditions: Condition[];
  keyed?: KeyedOrder;
}

/** How the employees module reaches the properties other modules add to employees (EmployeeExtension), all of them at once. */
@Injectable()
export class EmployeeExtensionPoints {
  constructor(
    private readonly hooks: EmployeeHooks,
    private readonly employees: EmployeesRepository,
  ) {}

  /** Each extension's checked write of the property `body` carries (none when it carries none). */
  async prepare(writer: ExtensionReader, employeeId: number | undefined, body: object): Promise<ExtensionWrites> {
    return (await this.prepareMany(writer, [{ employeeId, body }]))[0];
  }

  /** prepare() of many bodies (an import's batch): each extension checks all of its own at once. */
  async prepareMany(
    writer: ExtensionReader,
    items: ReadonlyArray<{ employeeId: number | undefined; body: object }>,
  ): Promise<ExtensionWrites[]> {
    const parts = items.map(() => [] as WritePart[]);
    for (const ext of this.hooks.extensions) {
      // A new employee meets every extension (a required custom field), with or without its property.
      const mine = items.flatMap(({ employeeId, body }, i) => {
        const value = (body as Record<string, unknown>)[ext.property];
        return value !== undefined || employeeId === undefined ? [{ i, employeeId, value: value ?? {} }] : [];
      });
      if (!mine.length) continue;
      const writes = await ext.prepare(writer, mine);
      mine.forEach(({ i }, n) => parts[i].push({ ext, write: writes[n] }));
    }
    return parts.map((own) => {
      const writes: ExtensionWrites = combined(
        own,
        async (em, id) => (await this.applyMany(em, [{ writes, employeeId: id }]))[0],
      );
      return writes;
    });
  }

  /**
   * Writes prepared writes, each to its employee, in the transaction: each extension all of its
   * own at once. The audit's before and after of each, by property.
   */
  async applyMany(
    em: EntityManager,
    writes: ReadonlyArray<{ writes: ExtensionWrites; employeeId: number }>,
  ): Promise<Array<{ before: Record<string, unknown>; after: Record<string, unknown> }>> {
    const out: Array<{ before: Record<string, unknown>; after: Record<string, unknown> }> = writes.map(() => ({
      before: {},
      after: {},
    }));
    for (const ext of this.hooks.extensions) {
      const mine = writes.flatMap(({ writes: w, employeeId }, i) =>
        w.parts.filter((p) => p.ext === ext && p.write.changed.length).map((p) => ({ i, write: p.write, employeeId })),
      );
      if (!mine.length) continue;
      const done = await ext.applyMany(em, mine);
      mine.forEach(({ i }, n) => {
        out[i].before[ext.property] = done[n].before;
        out[i].after[ext.property] = done[n].after;
      });
    }
    return out;
  }

  /**
   * GET /employees' filters and sort that belong to an extension (`filters[custom.badge]`,
   * `sortField=custom.badge`), taken out of the query for the list's own parsing; 400 for one the
   * caller may not use, named as the request names it.
   */
  async list(caller: AuthUser, scope: EmployeeScope, query: EmployeeListQueryDto, base: ListSpec): Promise<ExtendedList> {
    const out: ExtendedList = { query, spec: base, joins: [], conditions: [] };
    if (!this.hooks.extensions.length) return out;
    let filters: Record<string, unknown> | undefined;
    try {
      const parsed: unknown = query.filters === undefined ? undefined : JSON.parse(query.filters);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) filters = parsed as Record<string, unknown>;
    } catch {
      // The list's own parsing reports a malformed filter.
    }
    const problems: ErrorDetail[] = [];
    const rest = { ...filters };
    for (const ext of this.hooks.extensions) {
      const prefix = `${ext.listPrefix}.`;
      const own = Object.fromEntries(Object.entries(filters ?? {}).filter(([name]) => name.startsWith(prefix)));
      const sortField = query.sortField?.startsWith(prefix) ? query.sortField : undefined;
      if (!Object.keys(own).length && !sortField) continue;
      for (const name of Object.keys(own)) delete rest[name];
      const terms = await ext.listTerms(caller, scope, own, sortField, query.as_of);
      problems.push(...terms.problems);
      out.joins.push(...terms.joins);
      out.conditions.push(...terms.conditions);
      if (sortField && terms.sort) out.spec = { ...out.spec, sortFields: { ...out.spec.sortFields, [sortField]: terms.sort } };
      if (sortField && terms.keyed) out.keyed = terms.keyed;
    }
    if (problems.length) throw new ValidationException(problems);
    if (filters) out.query = { ...query, filters: Object.keys(rest).length ? JSON.stringify(rest) : undefined };
    return out;
  }

  /**
   * Adds the extension properties list items carry to a page's items, in one read each: what is
   * marked for lists on a page, everything the caller sees on an export's page (a CSV or XLSX file
   * has every custom field the caller sees, a column each).
   */
  async addListed(reader: ExtensionReader, items: ReadonlyArray<{ id: number }>, asOf?: string): Promise<void> {
    if (!items.length) return;
    const ids = items.map((i) => i.id);
    const exported = exportPageSize() !== undefined;
    // As of a day: the dated values of that day's segments.
    const segments =
      asOf !== undefined && this.hooks.extensions.some((ext) => ext.dated) ? await this.employees.extraOn(ids, asOf) : null;
    for (const ext of this.hooks.extensions) {
      if (ext.listed === false) continue;
      const dated = segments && datedOf(ext, ids, (id) => segments.get(id) ?? null);
      const values = await ext.read(null, reader, ids, !exported, dated ?? undefined);
      for (const item of items) (item as Record<string, unknown>)[ext.property] = values.get(item.id) ?? {};
    }
  }

  /** The employees import's columns of every extension's property that `writer` may write, with the property each fills. */
  async importColumns(writer: ExtensionReader): Promise<Array<ExtensionColumn & { property: string }>> {
    const out: Array<ExtensionColumn & { property: string }> = [];
    for (const ext of this.hooks.extensions)
      if (ext.importColumns) for (const c of await ext.importColumns(writer)) out.push({ ...c, property: ext.property });
    return out;
  }

  /**
   * A change's values of the extensions' dated properties (`fields.custom_fields`), each checked
   * by its extension: what the change sets, 400 details and what the caller may not change.
   */
  async datedCheck(writer: ExtensionReader, employeeId: number, fields: object | undefined): Promise<DatedChecks> {
    const out: DatedChecks = { extra: {}, problems: [], forbidden: [] };
    const source = (fields ?? {}) as Record<string, unknown>;
    for (const ext of this.hooks.extensions) {
      if (!ext.dated || source[ext.property] === undefined) continue;
      const checked = await ext.dated.check(writer, employeeId, source[ext.property]);
      if (Object.keys(checked.set).length) out.extra[ext.property] = checked.set;
      out.problems.push(...checked.problems);
      out.forbidden.push(...checked.forbidden);
    }
    return out;
  }

  /** Dated values (a change's, a segment's) as `reader` sees them: every dated property, `{}` when it has none. */
  async datedView(reader: ExtensionReader, employeeId: number, extra: ExtraValues): Promise<ExtraValues> {
    const out: ExtraValues = {};
    for (const ext of this.hooks.extensions)
      if (ext.dated) out[ext.property] = await ext.dated.view(reader, employeeId, extra[ext.property] ?? {});
    return out;
  }

  /**
   * Every extension property of one employee as `reader` sees it (null: the system, as the audit
   * records it), read in `em` when given (inside a transaction); `{}` for an extension without one.
   */
  async propertiesOf(
    em: EntityManager | null,
    reader: ExtensionReader,
    id: number,
    asOf?: EmploymentSegment,
  ): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const ext of this.hooks.extensions) {
      const dated = asOf ? datedOf(ext, [id], () => asOf.extra) : null;
      out[ext.property] = (await ext.read(em, reader, [id], false, dated ?? undefined)).get(id) ?? {};
    }
    return out;
  }
}

/** A dated extension's values of these employees from their segments' stored extra values (null: not dated). */
function datedOf(
  ext: EmployeeExtension,
  ids: readonly number[],
  stored: (id: number) => string | null,
): Map<number, Record<string, unknown>> | null {
  if (!ext.dated) return null;
  return new Map(ids.map((id) => [id, extraOf(stored(id))[ext.property] ?? {}]));
}
