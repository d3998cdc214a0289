import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { recordAudits } from '../../common/audit/audit-log';
import { DomainException } from '../../common/errors/domain.exception';
import { CustomField } from '../entities/custom-field.entity';
import { encode, fromText, optionValues, StoredValue, toText } from './custom-field-codec';
import { CustomFieldValuesRepository, groupRows, ValueRow } from './custom-field-values.repository';
import { PROPERTY, valueOf } from './custom-field-codec';

/** Employees' values read and rewritten at a time. */
const BATCH = 1_000;
/** How many offending employees a refusal names. */
const NAMED = 10;

/** A field's rows, employee by employee, in batches of BATCH employees. */
async function* byEmployee(
  repo: CustomFieldValuesRepository,
  em: EntityManager,
  fieldId: number,
): AsyncGenerator<Map<number, ValueRow[]>> {
  let after = 0;
  for (;;) {
    const rows = await repo.batchOf(em, fieldId, after, BATCH);
    if (!rows.length) return;
    yield groupRows(rows, 'employeeId');
    after = rows[rows.length - 1].employeeId;
  }
}

/**
 * What a change of a definition does to the values (docs/api/custom-fields.md), in the change's
 * transaction: an option still in use cannot be removed (409 IN_USE with the count); a new type,
 * or a field made unique, converts every value and is refused (409 CONFLICT with the count and the
 * first employees) when some would not fit or two employees would share a unique value; a deleted
 * field's values are recorded in each employee's audit first.
 */
@Injectable()
export class DefinitionChanges {
  constructor(private readonly values: CustomFieldValuesRepository) {}

  async changed(em: EntityManager, before: CustomField, after: CustomField): Promise<void> {
    // A dated field's values are also in the employment history, which keeps them as they were written.
    if (before.dated && before.type !== after.type)
      throw new DomainException('CONFLICT', 'A dated field keeps its type (its history holds values of it): define a new field', [
        { field: 'type', message: 'a dated field keeps its type' },
      ]);
    if (before.dated !== after.dated && (await this.values.batchOf(em, after.id, 0, 1)).length)
      throw new DomainException(
        'IN_USE',
        'A field becomes dated, or stops being dated, only while no employee has a value of it',
        [{ field: 'dated', message: 'employees have values of this field' }],
      );
    if (before.type === after.type && after.options) {
      const kept = optionValues(after);
      const removed = optionValues(before).filter((v) => !kept.includes(v));
      const use = await this.values.optionUse(em, after.id, removed);
      if (use.size) {
        const counts = [...use].map(([option, n]) => `${option} (${n})`).join(', ');
        throw new DomainException('IN_USE', `Options still in use cannot be removed: ${counts}`, [
          { field: 'options', message: `still in use: ${counts}` },
        ]);
      }
    }
    if (before.type !== after.type || before.unique !== after.unique) await this.convert(em, before, after);
  }

  /** Records every employee's value of the field in its audit (the values then go with the field: a cascade). */
  async removing(em: EntityManager, field: CustomField): Promise<number> {
    let count = 0;
    for await (const batch of byEmployee(this.values, em, field.id)) {
      count += batch.size;
      await recordAudits(
        em,
        [...batch].map(([employee, rows]) => ({
          action: 'update' as const,
          resource: 'employees',
          resourceId: employee,
          employee,
          before: { [PROPERTY]: { [field.key]: valueOf(field, rows) } },
          after: { [PROPERTY]: { [field.key]: null } },
        })),
      );
    }
    return count;
  }

  /** Every value of `before` as `after` reads its text; nothing written unless all fit. */
  private async convert(em: EntityManager, before: CustomField, after: CustomField): Promise<void> {
    const misfits: number[] = [];
    let misfitCount = 0;
    const owners = new Map<string, number>();
    const converted: Array<[number, StoredValue[]]> = [];
    const references = new Set<number>();
    for await (const batch of byEmployee(this.values, em, before.id)) {
      for (const [employee, rows] of batch) {
        const encoded = encode(after, fromText(after.type, toText(valueOf(before, rows))));
        const taken = 'rows' in encoded && encoded.rows[0]?.unique && owners.has(encoded.rows[0].unique);
        if ('problem' in encoded || taken) {
          misfitCount++;
          if (misfits.length < NAMED) misfits.push(employee);
          continue;
        }
        if (encoded.rows[0]?.unique) owners.set(encoded.rows[0].unique, employee);
        if (after.type === 'employee' && typeof encoded.value === 'number') references.add(encoded.value);
        converted.push([employee, encoded.rows]);
      }
    }
    if (references.size) {
      const existing = await this.values.existingEmployees(em, [...references]);
      for (const [employee, rows] of converted)
        if (rows[0] && !existing.has(rows[0].number!)) {
          misfitCount++;
          if (misfits.length < NAMED) misfits.push(employee);
        }
    }
    if (misfitCount) {
      const why = before.type === after.type ? 'shared by more than one employee' : `not of the type ${after.type}`;
      const first = `${misfits.join(', ')}${misfitCount > misfits.length ? ', ...' : ''}`;
      throw new DomainException('CONFLICT', `Values ${why}: ${misfitCount} (employees ${first}); change them first`, [
        { field: before.type === after.type ? 'unique' : 'type', message: `values ${why}: ${misfitCount}` },
      ]);
    }
    for (let i = 0; i < converted.length; i += BATCH) {
      const chunk = converted.slice(i, i + BATCH);
      await this.values.deleteOf(
        em,
        after.id,
        chunk.map(([employee]) => employee),
      );
      await this.values.insert(
        em,
        chunk.flatMap(([employeeId, rows]) => rows.map((r) => ({ ...r, fieldId: after.id, employeeId }))),
      );
    }
  }
}
