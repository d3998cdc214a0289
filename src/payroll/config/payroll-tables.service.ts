import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Decimal from 'decimal.js';
import { DataSource, EntityManager, In, IsNull, Not } from 'typeorm';
import { recordAudit } from '../../common/audit/audit-log';
import { transaction } from '../../common/database/transaction';
import { DomainException, ErrorDetail, NotFoundException, ValidationException } from '../../common/errors/domain.exception';
import { findTablePage, ListSpec, parseListQuery } from '../../common/paging/list-request';
import { ListQueryDto } from '../../common/paging/list-query.dto';
import { Page } from '../../common/paging/page';
import { PayrollTableDto, SavePayrollTableDto, UpdatePayrollTableDto } from '../dto/payroll-tables.dto';
import { PayrollTable, PayrollTableVersion, TableKind } from '../entities/payroll-config.entities';
import { Payroll, UsedTableVersion } from '../entities/payroll-run.entities';
import { Dec, FormulaTable } from '../formula/formula';

export const PAYROLL_TABLES = 'payroll_config/tables';
export const TABLE_LIST_SPEC: ListSpec = { idColumn: 't.id', sortFields: { id: 't.id', name: 't.name' } };
/** Tables one run may read: each is loaded, with its version in force, per processing. */
export const MAX_TABLES_PER_RUN = 50;

/** A decimal as the API writes it: integers keep ".00" for amounts, rates stay as given ("0.2"). */
const DECIMAL = /^-?\d{1,13}(\.\d{1,10})?$/;

type Row = Record<string, string | null>;

/** A table version resolved for a run: what formulas read and what the run keeps. */
export interface ResolvedTable {
  formula: FormulaTable;
  used: UsedTableVersion;
  /** The version's rows as stored (explain shows them). */
  rows: Array<Record<string, string | null>>;
}

/**
 * Payroll tables (issue 44, docs/api/decisions.md §20): brackets and lookups in dated versions, read by formulas
 * through bracket(), band() and lookup(). A run uses each table's version in force on its last day
 * and keeps which (payrolls.table_versions): a version a Processed or Completed run read cannot
 * change or go (409 IN_USE); add a version instead.
 */
@Injectable()
export class PayrollTablesService {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async list(query: ListQueryDto): Promise<Page<PayrollTableDto>> {
    const page = await findTablePage(this.ds.getRepository(PayrollTable), 't', parseListQuery(query, TABLE_LIST_SPEC));
    const versions = await this.versionsOf(page.items.map((t) => t.id));
    return page.map((t) => toDto(t, versions.get(t.id) ?? []));
  }

  async get(id: number): Promise<PayrollTableDto> {
    const table = await this.ds.getRepository(PayrollTable).findOne({ where: { id } });
    if (!table) throw new NotFoundException('Payroll table');
    return toDto(table, (await this.versionsOf([id])).get(id) ?? []);
  }

  async create(dto: SavePayrollTableDto): Promise<PayrollTableDto> {
    return this.save(null, dto);
  }

  async update(id: number, dto: UpdatePayrollTableDto): Promise<PayrollTableDto> {
    const current = await this.get(id);
    return this.save(id, {
      name: dto.name ?? current.name,
      kind: dto.kind ?? current.kind,
      versions: dto.versions ?? current.versions,
    });
  }

  /** Removes a table that no Processed or Completed run read. */
  async remove(id: number): Promise<{ id: number }> {
    await transaction(this.ds, async (em) => {
      const before = await this.get(id);
      const versions = (await this.versionsOf([id], em)).get(id) ?? [];
      await this.refuseInUse(
        em,
        versions.map((v) => v.id),
        `Payroll table ${id}`,
      );
      await em.delete(PayrollTableVersion, { tableId: id });
      await em.delete(PayrollTable, { id });
      await recordAudit(em, { action: 'delete', resource: PAYROLL_TABLES, resourceId: id, before });
    });
    return { id };
  }

  /**
   * The version in force on `day` of each table named (those without one are absent: a formula
   * reading them fails with a cell error naming the table). At most MAX_TABLES_PER_RUN names.
   */
  async inForce(names: readonly string[], day: string): Promise<Map<string, ResolvedTable>> {
    const out = new Map<string, ResolvedTable>();
    const wanted = [...new Set(names)].slice(0, MAX_TABLES_PER_RUN);
    if (!wanted.length) return out;
    const tables = await this.ds.getRepository(PayrollTable).find({ where: { name: In(wanted) } });
    const versions = await this.versionsOf(tables.map((t) => t.id));
    for (const t of tables) {
      const version = (versions.get(t.id) ?? []).filter((v) => v.effectiveFrom <= day).at(-1);
      if (version) out.set(t.name, resolved(t, version));
    }
    return out;
  }

  /**
   * The versions a run computes with: those it read when it was processed (they never change),
   * and for any other name the one in force on its last day.
   */
  async forRun(run: Pick<Payroll, 'tableVersions' | 'dateEnd'>, names: readonly string[]): Promise<Map<string, ResolvedTable>> {
    const kept = await this.used(run.tableVersions ?? []);
    return new Map([
      ...kept,
      ...(await this.inForce(
        names.filter((name) => !kept.has(name)),
        run.dateEnd,
      )),
    ]);
  }

  /** The versions a run kept, by id (a version a kept run read never changes). */
  async used(versions: readonly UsedTableVersion[]): Promise<Map<string, ResolvedTable>> {
    const out = new Map<string, ResolvedTable>();
    if (!versions.length) return out;
    const rows = await this.ds.getRepository(PayrollTableVersion).find({ where: { id: In(versions.map((v) => v.version)) } });
    const tables = await this.ds.getRepository(PayrollTable).find({ where: { id: In(rows.map((r) => r.tableId)) } });
    for (const v of rows) {
      const t = tables.find((x) => x.id === v.tableId);
      if (t) out.set(t.name, resolved(t, v));
    }
    return out;
  }

  private async save(id: number | null, dto: SavePayrollTableDto): Promise<PayrollTableDto> {
    const kind = dto.kind as TableKind;
    const problems = versionProblems(kind, dto);
    if (problems.length) throw new ValidationException(problems);
    return transaction(this.ds, async (em) => {
      const repo = em.getRepository(PayrollTable);
      const existing = id === null ? null : await repo.findOne({ where: { id } });
      if (id !== null && !existing) throw new NotFoundException('Payroll table');
      if (await repo.exists({ where: { name: dto.name, ...(id === null ? {} : { id: Not(id) }) } }))
        throw new DomainException('DUPLICATE', `A payroll table is already named ${dto.name}`, [
          { field: 'name', message: 'already used' },
        ]);
      const old = existing ? ((await this.versionsOf([existing.id], em)).get(existing.id) ?? []) : [];
      const before = existing ? toDto(existing, old) : null;
      const rows = dto.versions.map((v) => ({ effectiveFrom: v.effective_from, rows: normalRows(kind, v.rows) }));
      if (existing) {
        // A version a kept run read stays exactly as it was (and so does the table's kind).
        const changed = old.filter(
          (v) =>
            kind !== existing.kind ||
            !rows.some((r) => r.effectiveFrom === v.effectiveFrom && JSON.stringify(r.rows) === JSON.stringify(v.rows)),
        );
        await this.refuseInUse(
          em,
          changed.map((v) => v.id),
          `A version of payroll table ${existing.id}`,
        );
        await repo.update({ id: existing.id }, { name: dto.name, kind });
        const keep = new Set(old.filter((v) => !changed.includes(v)).map((v) => v.effectiveFrom));
        if (changed.length) await em.delete(PayrollTableVersion, { id: In(changed.map((v) => v.id)) });
        const fresh = rows.filter((r) => !keep.has(r.effectiveFrom));
        if (fresh.length)
          await em.insert(
            PayrollTableVersion,
            fresh.map((r) => ({ tableId: existing.id, ...r })),
          );
      }
      const tableId: number = existing?.id ?? ((await repo.insert({ name: dto.name, kind })).identifiers[0].id as number);
      if (!existing)
        await em.insert(
          PayrollTableVersion,
          rows.map((r) => ({ tableId, ...r })),
        );
      const table = await repo.findOneOrFail({ where: { id: tableId } });
      const after = toDto(table, (await this.versionsOf([tableId], em)).get(tableId) ?? []);
      await recordAudit(em, {
        action: before ? 'update' : 'create',
        resource: PAYROLL_TABLES,
        resourceId: tableId,
        before,
        after,
      });
      return after;
    });
  }

  /** 409 IN_USE when a Processed or Completed run read one of these versions, naming the runs. */
  private async refuseInUse(em: EntityManager, versionIds: number[], what: string): Promise<void> {
    if (!versionIds.length) return;
    const ids = new Set(versionIds);
    const runs = await em.getRepository(Payroll).find({
      where: { status: In(['Processed', 'Completed']), tableVersions: Not(IsNull()) },
      select: { id: true, tableVersions: true },
    });
    const users = runs.filter((p) => (p.tableVersions ?? []).some((v) => ids.has(v.version))).map((p) => p.id);
    if (users.length)
      throw new DomainException('IN_USE', `${what} was read by payrolls ${users.slice(0, 20).join(', ')}: add a version instead`);
  }

  private async versionsOf(tableIds: number[], em?: EntityManager): Promise<Map<number, PayrollTableVersion[]>> {
    const out = new Map<number, PayrollTableVersion[]>();
    if (!tableIds.length) return out;
    const rows = await (em ?? this.ds.manager)
      .getRepository(PayrollTableVersion)
      .find({ where: { tableId: In(tableIds) }, order: { effectiveFrom: 'ASC' } });
    for (const v of rows)
      out.set(v.tableId, [...(out.get(v.tableId) ?? []), { ...v, effectiveFrom: String(v.effectiveFrom).slice(0, 10) }]);
    return out;
  }
}

function toDto(t: PayrollTable, versions: PayrollTableVersion[]): PayrollTableDto {
  return {
    id: t.id,
    name: t.name,
    kind: t.kind,
    versions: versions.map((v) => ({ effective_from: v.effectiveFrom, rows: v.rows })),
  };
}

function resolved(t: PayrollTable, v: PayrollTableVersion): ResolvedTable {
  const formula: FormulaTable =
    t.kind === 'brackets'
      ? {
          name: t.name,
          version: v.effectiveFrom,
          brackets: v.rows.map((r) => ({
            from: new Dec(r.from!),
            to: r.to === null ? null : new Dec(r.to),
            rate: new Dec(r.rate!),
            fixed: new Dec(r.fixed ?? '0'),
          })),
        }
      : { name: t.name, version: v.effectiveFrom, lookup: new Map(v.rows.map((r) => [r.key!, new Dec(r.value!)])) };
  return { formula, used: { table: t.id, name: t.name, version: v.id, effective_from: v.effectiveFrom }, rows: v.rows };
}

/** A decimal given as a string or a JSON number, as text ("0.2", "10000.00"); null when it is none. */
function decimalText(value: unknown): string | null {
  const text = typeof value === 'number' && Number.isFinite(value) ? new Decimal(value).toString() : value;
  return typeof text === 'string' && DECIMAL.test(text) ? text : null;
}

/** Rows as stored: amounts as decimal texts, brackets with every field, lookups with text keys. */
function normalRows(kind: TableKind, rows: Array<Record<string, unknown>>): Row[] {
  return rows.map((r): Row =>
    kind === 'brackets'
      ? {
          from: decimalText(r.from),
          to: r.to === null || r.to === undefined ? null : decimalText(r.to),
          rate: decimalText(r.rate),
          fixed: decimalText(r.fixed ?? '0'),
        }
      : { key: typeof r.key === 'number' ? String(r.key) : (r.key as string), value: decimalText(r.value) },
  );
}

/** Each version's rows checked for the kind: brackets ordered, not overlapping, rates not negative; lookups with distinct keys. */
function versionProblems(kind: TableKind, dto: SavePayrollTableDto): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const days = new Set<string>();
  dto.versions.forEach((v, i) => {
    const at = `versions[${i}]`;
    if (days.has(v.effective_from)) problems.push({ field: `${at}.effective_from`, message: 'appears twice' });
    days.add(v.effective_from);
    let lastTo: Decimal | null | undefined;
    const keys = new Set<string>();
    v.rows.forEach((r, j) => {
      const row = `${at}.rows[${j}]`;
      const add = (field: string, message: string) => problems.push({ field: `${row}.${field}`, message });
      const allowed = kind === 'brackets' ? ['from', 'to', 'rate', 'fixed'] : ['key', 'value'];
      for (const k of Object.keys(r)) if (!allowed.includes(k)) add(k, `is not a field of a ${kind} row`);
      if (kind === 'lookup') {
        const key = typeof r.key === 'number' ? String(r.key) : r.key;
        if (typeof key !== 'string' || !key.length || key.length > 100) add('key', 'must be a text of 1 to 100 characters');
        else if (keys.has(key)) add('key', 'appears twice');
        else keys.add(key);
        if (decimalText(r.value) === null) add('value', 'must be a decimal such as "250.00"');
        return;
      }
      const from = decimalText(r.from);
      const to = r.to === null || r.to === undefined ? null : decimalText(r.to);
      const rate = decimalText(r.rate);
      if (from === null) return add('from', 'must be a decimal such as "10000.00"');
      if (r.to !== null && r.to !== undefined && to === null) return add('to', 'must be a decimal or null');
      if (rate === null || new Decimal(rate).isNeg()) add('rate', 'must be a decimal of at least 0, such as "0.2"');
      if (r.fixed !== undefined && (decimalText(r.fixed) === null || new Decimal(decimalText(r.fixed)!).isNeg()))
        add('fixed', 'must be a decimal of at least 0');
      if (to !== null && !new Decimal(to).gt(from)) add('to', 'must be above from');
      if (lastTo === null) add('from', 'comes after a bracket without an end');
      else if (lastTo !== undefined && new Decimal(from).lt(lastTo))
        add('from', 'overlaps the bracket before it, or is out of order (brackets go from the lowest)');
      lastTo = to === null ? null : new Decimal(to);
    });
  });
  return problems;
}
