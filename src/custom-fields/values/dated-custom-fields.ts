import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ErrorDetail } from '../../common/errors/domain.exception';
import { EmployeeAccessService } from '../../employees/core/employee-access.service';
import { DatedCheck, DatedExtension } from '../../employees/core/employee-extensions';
import { CustomField } from '../entities/custom-field.entity';
import { mayEdit, referenceProblems, sight, ValueReader } from './custom-field-access';
import { CustomValue, encode, PROPERTY, StoredValue, valueOf } from './custom-field-codec';
import { CustomFieldDefinitions } from './custom-field-definitions';
import { CustomFieldValuesRepository, groupRows } from './custom-field-values.repository';

/** The API's name of a change's dated custom field. */
const changeName = (key: string) => `fields.${PROPERTY}.${key}`;

/**
 * Dated custom fields (`dated: true`, docs/api/custom-fields.md): their values are kept by the
 * employment history (a change's `fields.custom_fields`, each segment's), and the value in force
 * today is the current one, kept in custom_field_values as every other field's, so that reads,
 * filters and sorts of today are those of any field.
 */
@Injectable()
export class DatedCustomFields implements DatedExtension {
  constructor(
    private readonly definitions: CustomFieldDefinitions,
    private readonly values: CustomFieldValuesRepository,
    private readonly access: EmployeeAccessService,
  ) {}

  /** Each key a dated field the writer sees and may edit, its value of the field's type (null clears; a required one cannot be). */
  async check(writer: ValueReader, employeeId: number, body: unknown): Promise<DatedCheck> {
    const out: DatedCheck = { set: {}, problems: [], forbidden: [] };
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      out.problems.push({ field: `fields.${PROPERTY}`, message: 'must be an object of dated custom field keys and values' });
      return out;
    }
    const fields = new Map(
      (await this.definitions.fresh()).filter((f) => sight(f, writer, employeeId) !== 'absent').map((f) => [f.key, f]),
    );
    const refs: Array<{ field: CustomField; value: CustomValue }> = [];
    for (const [key, raw] of Object.entries(body as Record<string, unknown>)) {
      const field = fields.get(key);
      const problem = (message: string) => out.problems.push({ field: changeName(key), message });
      if (!field) problem('is not a custom field');
      else if (!field.dated) problem('is not a dated custom field: PUT /employees/{id} sets it');
      else {
        const encoded = encode(field, raw);
        if ('problem' in encoded) problem(encoded.problem);
        else if (encoded.value === null && field.required) problem('is required');
        else {
          if (!mayEdit(field, writer, employeeId)) out.forbidden.push(`${PROPERTY}.${key}`);
          out.set[key] = encoded.value;
          refs.push({ field, value: encoded.value });
        }
      }
    }
    const scope = writer?.scope ?? { kind: 'all' as const };
    out.problems.push(
      ...(await referenceProblems((id) => this.access.referable(scope, id), employeeId, refs, `fields.${PROPERTY}`)),
    );
    return out;
  }

  /**
   * Today's values of the dated fields made the current ones: a dated field the segment does not
   * hold has none. A value its field no longer accepts (an option removed since it was scheduled)
   * is left as it was.
   */
  async apply(em: EntityManager, employeeId: number, values: Record<string, unknown>) {
    // In the writer's transaction: a second connection per writer starved MariaDB's pool at 16 writers of one employee.
    const fields = (await this.definitions.fresh(em)).filter((f) => f.dated);
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    if (!fields.length) return { before, after };
    const current = groupRows(
      await this.values.valuesOf(
        em,
        fields.map((f) => f.id),
        [employeeId],
      ),
      'fieldId',
    );
    const moved: Array<{ fieldId: number; rows: StoredValue[] }> = [];
    for (const field of fields) {
      const was = valueOf(field, current.get(field.id));
      const encoded = encode(field, values[field.key] ?? null);
      if ('problem' in encoded || JSON.stringify(was) === JSON.stringify(encoded.value)) continue;
      moved.push({ fieldId: field.id, rows: encoded.rows });
      before[field.key] = was;
      after[field.key] = encoded.value;
    }
    await this.values.replace(em, employeeId, moved);
    return { before, after };
  }

  /** Dated values as the reader sees them: those of fields it does not see left out, personal ones it may not see null. */
  async view(reader: ValueReader, employeeId: number, values: Record<string, unknown>): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const field of await this.definitions.recent()) {
      if (!field.dated) continue;
      const seen = sight(field, reader, employeeId);
      if (seen !== 'absent') out[field.key] = seen === 'hidden' ? null : (values[field.key] ?? null);
    }
    return out;
  }
}

/** A dated list term's refusal: a list as of a day filters and sorts by today's values only. */
export function asOfProblem(field: CustomField, name: string): ErrorDetail | null {
  return field.dated
    ? { field: name, message: `${field.key} is dated: filtering or sorting by it with as_of is not supported` }
    : null;
}
