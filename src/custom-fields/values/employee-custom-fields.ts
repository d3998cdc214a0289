import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuthUser } from '../../common/auth/auth-user';
import { ErrorDetail } from '../../common/errors/domain.exception';
import { FeedItem, FeedReadRules } from '../../common/outbox/feed-read-rules';
import { Condition } from '../../common/paging/list-request';
import { EmployeeAccessService, EmployeeScope } from '../../employees/core/employee-access.service';
import {
  EmployeeExtension,
  ExtensionColumn,
  ExtensionItem,
  ExtensionListTerms,
  ExtensionWrite,
} from '../../employees/core/employee-extensions';
import { EmployeesService } from '../../employees/employees.service';
import { CustomFieldDefinitions } from './custom-field-definitions';
import { CustomField } from '../entities/custom-field.entity';
import { mayEdit, referenceProblems, sight, ValueReader } from './custom-field-access';
import {
  CustomValue,
  decode,
  encode,
  fromText,
  importExample,
  optionValues,
  PROPERTY,
  StoredValue,
  valueOf,
} from './custom-field-codec';
import { asOfProblem, DatedCustomFields } from './dated-custom-fields';
import { filterCondition, sortTerm } from './custom-field-filters';
import { CustomFieldValuesRepository, groupRows, ValueRow } from './custom-field-values.repository';

/** The list terms' prefix (docs/api/custom-fields.md). */
const LIST_PREFIX = 'custom';

/** A body's change of one field. */
interface Change {
  field: CustomField;
  before: CustomValue;
  value: CustomValue;
  rows: StoredValue[];
}

/** A body checked against the stored values, before its references and unique values are. */
interface Checked {
  changes: Change[];
  problems: ErrorDetail[];
  forbidden: string[];
  dated: Record<string, CustomValue>;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `fn` called once per argument (a batch's lookups of one employee). */
function memo<T>(fn: (id: number) => Promise<T>): (id: number) => Promise<T> {
  const done = new Map<number, Promise<T>>();
  return (id) => done.get(id) ?? done.set(id, fn(id)).get(id)!;
}

/** The changes' unique values another employee than `employeeId` holds (`owners`: uniqueOwners). */
function takenIn(
  owners: ReadonlyMap<number, ReadonlyMap<string, number>>,
  changes: readonly Change[],
  employeeId: number | undefined,
): ErrorDetail[] {
  return changes.flatMap(({ field, rows }) => {
    const owner = rows[0]?.unique ? owners.get(field.id)?.get(rows[0].unique) : undefined;
    return owner !== undefined && owner !== employeeId
      ? [{ field: `${PROPERTY}.${field.key}`, message: 'is already used by another employee' }]
      : [];
  });
}

/** Rows grouped by employee, then field. */
function grouped(rows: readonly ValueRow[]): Map<number, Map<number, ValueRow[]>> {
  return new Map([...groupRows(rows, 'employeeId')].map(([id, own]) => [id, groupRows(own, 'fieldId')]));
}

/**
 * Custom fields' values on employees (issue 66): `custom_fields: {<key>: value}` on GET/POST/PUT
 * /employees and on the list's items, `filters[custom.<key>]` and `sortField=custom.<key>`. The
 * module registers it with the employees module, which never names custom fields.
 */
@Injectable()
export class EmployeeCustomFields implements EmployeeExtension, OnModuleInit {
  readonly property = PROPERTY;
  readonly listPrefix = LIST_PREFIX;

  constructor(
    private readonly definitions: CustomFieldDefinitions,
    private readonly values: CustomFieldValuesRepository,
    private readonly employees: EmployeesService,
    private readonly access: EmployeeAccessService,
    private readonly feedRules: FeedReadRules,
    @InjectDataSource() private readonly ds: DataSource,
    readonly dated: DatedCustomFields,
  ) {}

  /** What each write of prepare() will write (applyMany reads it back). */
  private readonly pending = new WeakMap<ExtensionWrite, { changes: Change[]; created: boolean }>();

  onModuleInit(): void {
    this.employees.extend(this);
    // A deleted employee's own values go with it (a cascade); those that point to it are cleared.
    this.employees.onRemove((em, id) => this.values.clearReferencesTo(em, id));
    // The change feed shows an employee event's custom fields as GET /employees/{id} would.
    this.feedRules.register('employee.', (caller, items) => this.redact(caller, items));
  }

  /** Takes out of employee events' changes the custom fields the caller does not see (a personal one it sees as null: null). */
  private async redact(caller: AuthUser, items: FeedItem[]): Promise<boolean[]> {
    if (caller.level === 'Admin') return items.map(() => true);
    const reader = { caller, scope: await this.access.scopeOf(caller) };
    const fields = new Map((await this.definitions.recent()).map((f) => [f.key, f]));
    for (const { data } of items) {
      const changes = data.changes as Record<string, [unknown, unknown]> | undefined;
      const values = changes?.[PROPERTY];
      if (!changes || !Array.isArray(values)) continue;
      const employee = Number(data.employee ?? data.id);
      const shown = (side: unknown) => {
        if (side === null || typeof side !== 'object') return side;
        const out: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(side)) {
          const field = fields.get(key);
          const seen = field ? sight(field, reader, employee) : 'absent';
          if (seen !== 'absent') out[key] = seen === 'hidden' ? null : value;
        }
        return out;
      };
      const [before, after] = values.map(shown);
      if (Object.keys(after ?? before ?? {}).length) changes[PROPERTY] = [before, after];
      else delete changes[PROPERTY];
    }
    return items.map(() => true);
  }

  async read(
    em: EntityManager | null,
    reader: ValueReader,
    ids: readonly number[],
    list: boolean,
    dated?: ReadonlyMap<number, Record<string, unknown>>,
  ): Promise<Map<number, unknown>> {
    const defined = await this.definitions.recent();
    const fields = defined.filter((f) => !list || f.inList);
    // How the reader sees each field: sight() depends on the employee only through "its own record".
    const self = reader?.caller.employeeId ?? null;
    const onOthers = fields.map((f) => sight(f, reader, -1));
    const onOwn = self !== null && ids.includes(self) ? fields.map((f) => sight(f, reader, self)) : onOthers;
    // As of a day, a dated field's value is the history's of that day.
    const fromHistory = fields.map((f) => dated !== undefined && f.dated);
    const needed = fields.filter((f, k) => !fromHistory[k] && (onOthers[k] === 'value' || onOwn[k] === 'value'));
    const rows = await this.values.valuesOf(
      em,
      needed.map((f) => f.id),
      ids,
      2 * needed.length >= defined.length,
    );
    // The rows by employee (its position in ids) and field (its position in fields), in one pass.
    const position = new Map(ids.map((id, e) => [id, e]));
    const column = new Map(fields.map((f, k) => [f.id, k]));
    const cells: Array<Array<ValueRow[] | undefined>> = ids.map(() => []);
    for (const r of rows) {
      const e = position.get(r.employeeId);
      const k = column.get(r.fieldId);
      if (e !== undefined && k !== undefined) (cells[e][k] ??= []).push(r);
    }
    const options = fields.map((f) => (f.type === 'multiselect' ? optionValues(f) : undefined));
    const out = new Map<number, unknown>();
    ids.forEach((id, e) => {
      const seen = id === self ? onOwn : onOthers;
      const value: Record<string, unknown> = {};
      for (let k = 0; k < fields.length; k++) {
        if (seen[k] === 'absent') continue;
        const f = fields[k];
        if (seen[k] === 'hidden') value[f.key] = null;
        else if (fromHistory[k]) value[f.key] = dated!.get(id)?.[f.key] ?? null;
        else value[f.key] = decode(f.type, cells[e][k] ?? [], options[k]);
      }
      out.set(id, value);
    });
    return out;
  }

  /**
   * Checks the bodies' values (each an employee's: `employeeId` undefined for a new one) in one go:
   * the definitions, the stored values, the references and the unique values are read once for
   * all of them (an import's batch of rows), not once a row.
   */
  async prepare(writer: ValueReader, items: ReadonlyArray<ExtensionItem>): Promise<ExtensionWrite[]> {
    const fields = await this.definitions.fresh();
    const employeeIds = items.flatMap((i) => (i.employeeId === undefined ? [] : [i.employeeId]));
    const named = new Set(items.flatMap((i) => (isObject(i.value) ? Object.keys(i.value) : [])));
    const stored = grouped(
      await this.values.valuesOf(
        null,
        fields.filter((f) => named.has(f.key)).map((f) => f.id),
        employeeIds,
      ),
    );
    const checked = items.map(({ employeeId, value }) => this.check(writer, fields, employeeId, value, stored));
    const referable = memo((id: number) => this.access.referable(writer?.scope ?? { kind: 'all' }, id));
    const owners = await this.uniqueOwners(checked.flatMap((c) => ('changes' in c ? c.changes : [])));
    return Promise.all(
      checked.map(async (c, i) => {
        if (!('changes' in c)) return this.refused(c.problems);
        const { changes, problems, forbidden, dated } = c;
        const employeeId = items[i].employeeId;
        problems.push(...(await referenceProblems(referable, employeeId, changes, PROPERTY)));
        if (!problems.length) problems.push(...takenIn(owners, changes, employeeId));
        return this.write(changes, problems, forbidden, dated, employeeId);
      }),
    );
  }

  /** One body's changes against the stored values: what it changes, its problems, what the writer may not change. */
  private check(
    writer: ValueReader,
    fields: readonly CustomField[],
    employeeId: number | undefined,
    body: unknown,
    stored: Map<number, Map<number, ValueRow[]>>,
  ): { problems: ErrorDetail[] } | Checked {
    const problems: ErrorDetail[] = [];
    const forbidden: string[] = [];
    const seen = (f: CustomField) => sight(f, writer, employeeId ?? -1);
    const byKey = new Map(fields.filter((f) => seen(f) !== 'absent').map((f) => [f.key, f]));
    if (!isObject(body)) return { problems: [{ field: PROPERTY, message: 'must be an object of custom field keys and values' }] };
    const given = body;
    const named = Object.keys(given).map((key) => ({ key, field: Object.hasOwn(given, key) ? byKey.get(key) : undefined }));
    for (const { key, field } of named)
      if (!field) problems.push({ field: `${PROPERTY}.${key}`, message: 'is not a custom field' });
    const current = stored.get(employeeId ?? -1) ?? new Map<number, ValueRow[]>();
    const changes: Change[] = [];
    // A dated field's value is also recorded in the employment history (from today, or from a new employee's start).
    const dated: Record<string, CustomValue> = {};
    for (const { field } of named) {
      if (!field) continue;
      const name = `${PROPERTY}.${field.key}`;
      const raw = given[field.key];
      // A personal value the caller saw as null, sent back as it was read, changes nothing.
      if (raw === null && seen(field) === 'hidden') continue;
      const encoded = encode(field, raw);
      if ('problem' in encoded) {
        problems.push({ field: name, message: encoded.problem });
        continue;
      }
      const before = valueOf(field, current.get(field.id));
      if (JSON.stringify(before) === JSON.stringify(encoded.value)) continue;
      if (encoded.value === null && field.required) problems.push({ field: name, message: 'is required' });
      if (!mayEdit(field, writer, employeeId)) forbidden.push(name);
      changes.push({ field, before, value: encoded.value, rows: encoded.rows });
      if (field.dated) dated[field.key] = encoded.value;
    }
    if (employeeId === undefined)
      for (const field of byKey.values())
        if (field.required && given[field.key] === undefined)
          problems.push({ field: `${PROPERTY}.${field.key}`, message: 'is required' });
    return { changes, problems, forbidden, dated };
  }

  private write(
    changes: Change[],
    problems: ErrorDetail[],
    forbidden: string[],
    dated: Record<string, CustomValue>,
    employeeId: number | undefined,
  ): ExtensionWrite {
    const write: ExtensionWrite = {
      changed: changes.map((c) => `${PROPERTY}.${c.field.key}`),
      forbidden,
      problems,
      dated,
      unique: changes.flatMap((c) => (c.rows[0]?.unique ? [`${c.field.key}:${c.rows[0].unique}`] : [])),
      apply: async (em, id) => (await this.applyMany(em, [{ write, employeeId: id }]))[0],
      explainConflict: async (id) => takenIn(await this.uniqueOwners(changes), changes, id),
    };
    this.pending.set(write, { changes, created: employeeId === undefined });
    return write;
  }

  /**
   * Writes checked writes (each to its employee) in the transaction: one DELETE of the changed
   * fields of the employees that had values, and multi-row INSERTs of every new row.
   */
  async applyMany(
    em: EntityManager,
    writes: ReadonlyArray<{ write: ExtensionWrite; employeeId: number }>,
  ): Promise<Array<{ before: Record<string, unknown>; after: Record<string, unknown> }>> {
    const own = writes.map(({ write, employeeId }) => ({ employeeId, ...this.pending.get(write)! }));
    await this.values.replaceMany(
      em,
      own.map(({ employeeId, changes, created }) => ({
        employeeId,
        created,
        fields: changes.map((c) => ({ fieldId: c.field.id, rows: c.rows })),
      })),
    );
    return own.map(({ changes }) => ({
      before: Object.fromEntries(changes.map((c) => [c.field.key, c.before])),
      after: Object.fromEntries(changes.map((c) => [c.field.key, c.value])),
    }));
  }

  /** A column per field the writer sees and may edit, headed by its key (docs/api/custom-fields.md, "Import"). */
  async importColumns(writer: ValueReader): Promise<ExtensionColumn[]> {
    return (await this.definitions.fresh())
      .filter((f) => sight(f, writer, -1) !== 'absent' && mayEdit(f, writer, undefined))
      .map((f) => ({
        field: f.key,
        label: f.key,
        key: f.key,
        type: f.type === 'date' ? 'date' : 'text',
        example: importExample(f),
        note: f.description ?? undefined,
        dated: f.dated,
        read: (text: string) => fromText(f.type, text),
      }));
  }

  async listTerms(
    caller: AuthUser,
    scope: EmployeeScope,
    filters: Record<string, unknown>,
    sortField: string | undefined,
    asOf: string | undefined,
  ): Promise<ExtensionListTerms> {
    const fields = await this.definitions.recent();
    // What a caller filters and sorts by is what it sees of somebody else (a personal field it sees as null is not usable).
    const usable = new Map(
      fields.filter((f) => sight(f, { caller, scope }, -1) === 'value').map((f) => [`${LIST_PREFIX}.${f.key}`, f]),
    );
    const problems: ErrorDetail[] = [];
    const conditions: Condition[] = [];
    Object.entries(filters).forEach(([name, raw], n) => {
      const field = usable.get(name);
      if (!field) return problems.push({ field: `filters.${name}`, message: 'is not a custom field you may filter by' });
      const dated = asOf === undefined ? null : asOfProblem(field, `filters.${name}`);
      if (dated) return problems.push(dated);
      const condition = filterCondition(field, raw, `filters.${name}`, n, problems);
      if (condition) conditions.push(condition);
    });
    if (sortField === undefined) return { joins: [], conditions, problems };
    const field = usable.get(sortField);
    const dated = field && asOf !== undefined ? asOfProblem(field, 'sortField') : null;
    if (dated) return { joins: [], conditions, problems: [...problems, dated] };
    const term = field && sortTerm(field, this.ds.options.type === 'mysql');
    if (!term) problems.push({ field: 'sortField', message: `${sortField} is not a custom field you may sort by` });
    return { joins: term ? [term.join] : [], conditions, sort: term?.column, keyed: term?.keyed, problems };
  }

  private refused(problems: ErrorDetail[]): ExtensionWrite {
    return this.write([], problems, [], {}, undefined);
  }

  /** Who holds each of these unique values now (field id → unique key → employee), one query a field. */
  private async uniqueOwners(changes: readonly Change[]): Promise<Map<number, Map<string, number>>> {
    const wanted = new Map<number, Set<string>>();
    for (const { field, rows } of changes) {
      const unique = rows[0]?.unique;
      if (unique) (wanted.get(field.id) ?? wanted.set(field.id, new Set()).get(field.id)!).add(unique);
    }
    const out = new Map<number, Map<string, number>>();
    for (const [fieldId, keys] of wanted) out.set(fieldId, await this.values.uniqueOwners(fieldId, [...keys]));
    return out;
  }
}
