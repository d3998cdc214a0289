import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { AnonymisedSubject, PersonalData } from '../common/privacy/personal-data';
import { chunksOf, countByEmployee, total } from '../common/privacy/retention';
import { SubjectExport } from '../common/privacy/subject-export';
import { CustomField } from './entities/custom-field.entity';
import { CustomFieldValue } from './values/custom-field-value.entity';

/**
 * Personal custom fields (issue 69): the values of fields marked `pii` are the person's. The
 * anonymisation deletes the employee's values of them; their keys are personal wherever the
 * employee's audit entries, events and dated history carry them.
 */
@Injectable()
export class CustomFieldsPersonalData {
  constructor(registry: PersonalData) {
    registry.register({
      name: 'custom-fields',
      order: 40,
      keys: async (em) => (await this.personal(em)).map((f) => f.key),
      values: async (em, employeeId) => {
        const ids = await this.personalIds(em);
        if (!ids.length) return [];
        return (await em.getRepository(CustomFieldValue).findBy({ employeeId, fieldId: In(ids) })).map((v) => v.text);
      },
      anonymise: (em, subject) => this.anonymise(em, subject),
      export: (em, employeeId, out) => this.export(em, employeeId, out),
    });
    // Both actions delete the values of personal fields (a value has nothing left to keep without them).
    const count = (em: EntityManager, employeeIds: readonly number[], fields: number[]) =>
      fields.length ? countByEmployee(em, CustomFieldValue, employeeIds, [{ fieldId: In(fields) }]) : new Map<number, number>();
    registry.retain({
      category: 'custom_fields',
      description: 'the values of custom fields marked personal (pii)',
      count: async (em, employeeIds) => count(em, employeeIds, await this.personalIds(em)),
      apply: async (em, employeeIds) => {
        const fields = await this.personalIds(em);
        const records = total(await count(em, employeeIds, fields));
        if (records)
          for (const ids of chunksOf(employeeIds))
            await em.getRepository(CustomFieldValue).delete({ employeeId: In(ids), fieldId: In(fields) });
        return { records };
      },
    });
  }

  private async personalIds(em: EntityManager): Promise<number[]> {
    return (await this.personal(em)).map((f) => f.id);
  }

  private personal(em: EntityManager): Promise<CustomField[]> {
    return em.getRepository(CustomField).find({ where: { pii: true }, select: { id: true, key: true } });
  }

  /** employee.json's `custom_fields`: every field's value by key as stored (a multiselect's options in a list), personal or not. */
  private async export(em: EntityManager, employeeId: number, out: SubjectExport): Promise<void> {
    const fields = await em.getRepository(CustomField).find({ select: { id: true, key: true, type: true } });
    const keyOf = new Map(fields.map((f) => [f.id, f]));
    const values: Record<string, string | string[]> = {};
    for (const v of await em
      .getRepository(CustomFieldValue)
      .find({ where: { employeeId }, order: { fieldId: 'ASC', item: 'ASC' } })) {
      const field = keyOf.get(v.fieldId);
      if (!field) continue;
      if (field.type === 'multiselect') values[field.key] = [...((values[field.key] as string[] | undefined) ?? []), v.text];
      else values[field.key] = v.text;
    }
    out.section('custom_fields', values);
  }

  private async anonymise(em: EntityManager, subject: AnonymisedSubject): Promise<void> {
    const ids = await this.personalIds(em);
    if (ids.length) await em.getRepository(CustomFieldValue).delete({ employeeId: subject.employeeId, fieldId: In(ids) });
  }
}
