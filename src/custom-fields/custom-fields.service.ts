import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { recordAudit } from '../common/audit/audit-log';
import { AuthUser } from '../common/auth/auth-user';
import { transaction } from '../common/database/transaction';
import { isUniqueViolation } from '../common/errors/db-errors';
import { NotFoundException, ValidationException } from '../common/errors/domain.exception';
import { ListSpec, parseListQuery } from '../common/paging/list-request';
import { ListQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import {
  CreateCustomFieldDto,
  CUSTOM_FIELD_LIMITS,
  CustomFieldDeletedDto,
  CustomFieldDto,
  UpdateCustomFieldDto,
} from './dto/custom-fields.dto';
import { CustomFieldsRepository } from './custom-fields.repository';
import { CustomFieldDefinitions } from './values/custom-field-definitions';
import { DefinitionChanges } from './values/definition-changes';
import { exportColumns } from '../common/export/exportable';
import { EmployeeDto } from '../employees/dto/employee.dto';
import { CustomField, DEFAULT_AUDIENCE, SELECT_TYPES, UNIQUE_TYPES } from './entities/custom-field.entity';

export const CUSTOM_FIELD_LIST: ListSpec = {
  idColumn: 'f.id',
  sortFields: { id: 'f.id', key: 'f.field_key', label: 'f.label', position: 'f.position' },
  searchColumns: ['f.field_key', 'f.label'],
  defaultSort: { field: 'position', order: 'ascend' },
};

export const toCustomFieldDto = (f: CustomField): CustomFieldDto => ({
  id: f.id,
  key: f.key,
  label: f.label,
  type: f.type,
  options: f.options,
  required: f.required,
  unique: f.unique,
  dated: f.dated,
  pii: f.pii,
  visible_to: f.visibleTo,
  editable_by: f.editableBy,
  in_list: f.inList,
  position: f.position,
  description: f.description,
});

/**
 * Custom field definitions (issue 66, docs/api/custom-fields.md): at most 200, typed, with the
 * audiences that see their values. An Admin reads and writes them all; any other caller reads the
 * definitions of the fields its level sees, or that it sees on its own record (`self`).
 */
@Injectable()
export class CustomFieldsService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly repository: CustomFieldsRepository,
    private readonly definitions: CustomFieldDefinitions,
    private readonly changes: DefinitionChanges,
  ) {}

  async list(caller: AuthUser, query: ListQueryDto): Promise<Page<CustomFieldDto>> {
    return (await this.repository.visiblePage(caller, parseListQuery(query, CUSTOM_FIELD_LIST))).map(toCustomFieldDto);
  }

  async get(caller: AuthUser, id: number): Promise<CustomFieldDto> {
    const field = await this.repository.visibleOne(caller, id);
    if (!field) throw new NotFoundException('Custom field');
    return toCustomFieldDto(field);
  }

  /** A taken key is refused by the unique index (also for two creates of one key at once): 400 naming the key. */
  async create(dto: CreateCustomFieldDto): Promise<CustomFieldDto> {
    try {
      return await this.insert(dto);
    } catch (err) {
      if (isUniqueViolation(err)) throw ValidationException.field('key', `"${dto.key}" is taken`);
      throw err;
    }
  }

  private async insert(dto: CreateCustomFieldDto): Promise<CustomFieldDto> {
    // A file's column is headed by the key: it cannot be the name of an employee's own field.
    if (employeeNames().has(dto.key)) throw ValidationException.field('key', `"${dto.key}" is the name of an employee field`);
    return this.changing(async (em) => {
      const count = await em.count(CustomField);
      if (count >= CUSTOM_FIELD_LIMITS.fields)
        throw ValidationException.field('key', `an installation has at most ${CUSTOM_FIELD_LIMITS.fields} custom fields`);
      const field = em.create(CustomField, {
        key: dto.key,
        label: dto.label,
        type: dto.type,
        options: dto.options ?? null,
        required: dto.required ?? false,
        unique: dto.unique ?? false,
        dated: dto.dated ?? false,
        pii: dto.pii ?? false,
        visibleTo: dto.visible_to ?? [...DEFAULT_AUDIENCE],
        editableBy: dto.editable_by ?? 'admin',
        inList: dto.in_list ?? false,
        position: dto.position ?? Math.min(CUSTOM_FIELD_LIMITS.position, await this.repository.nextPosition(em)),
        description: dto.description ?? null,
      });
      checkDefinition(field);
      const saved = await em.save(CustomField, field);
      await recordAudit(em, {
        action: 'create',
        resource: 'custom_fields',
        resourceId: saved.id,
        after: toCustomFieldDto(saved),
      });
      return toCustomFieldDto(saved);
    });
  }

  async update(id: number, dto: UpdateCustomFieldDto): Promise<CustomFieldDto> {
    return this.changing(async (em) => {
      const field = await em.findOne(CustomField, { where: { id } });
      if (!field) throw new NotFoundException('Custom field');
      if (dto.key !== undefined && dto.key !== field.key)
        throw ValidationException.field('key', 'is immutable: it names the values everywhere');
      const before = toCustomFieldDto(field);
      const previous = { ...field };
      if (dto.label !== undefined) field.label = dto.label;
      if (dto.type !== undefined) field.type = dto.type;
      if (dto.options !== undefined) field.options = dto.options;
      if (dto.type !== undefined && !SELECT_TYPES.includes(dto.type) && dto.options === undefined) field.options = null;
      if (dto.required !== undefined) field.required = dto.required;
      if (dto.unique !== undefined) field.unique = dto.unique;
      if (dto.dated !== undefined) field.dated = dto.dated;
      if (dto.pii !== undefined) field.pii = dto.pii;
      if (dto.visible_to !== undefined) field.visibleTo = dto.visible_to;
      if (dto.editable_by !== undefined) field.editableBy = dto.editable_by;
      if (dto.in_list !== undefined) field.inList = dto.in_list;
      if (dto.position !== undefined) field.position = dto.position;
      if (dto.description !== undefined) field.description = dto.description;
      checkDefinition(field);
      await this.changes.changed(em, previous, field);
      const saved = await em.save(CustomField, field);
      await recordAudit(em, {
        action: 'update',
        resource: 'custom_fields',
        resourceId: id,
        before,
        after: toCustomFieldDto(saved),
      });
      return toCustomFieldDto(saved);
    });
  }

  async remove(id: number): Promise<CustomFieldDeletedDto> {
    return this.changing(async (em) => {
      const field = await em.findOne(CustomField, { where: { id } });
      if (!field) throw new NotFoundException('Custom field');
      await this.changes.removing(em, field);
      await em.delete(CustomField, { id });
      await recordAudit(em, { action: 'delete', resource: 'custom_fields', resourceId: id, before: toCustomFieldDto(field) });
      return { id };
    });
  }

  /** A change of the definitions in a transaction; this process's employee reads see it at once. */
  private async changing<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await transaction(this.ds, work);
    } finally {
      this.definitions.clear();
    }
  }
}

/** An employee's own property names, and the import's effective_date: the headers a custom field's column must not take. */
const employeeNames = () => new Set([...exportColumns(EmployeeDto).map((c) => c.field), 'effective_date']);

/** The rules that tie a definition's properties together: options for the selects only, unique for single comparable values. */
function checkDefinition(field: CustomField): void {
  const selects = SELECT_TYPES.includes(field.type);
  if (selects && !field.options?.length)
    throw ValidationException.field('options', `a ${field.type} field needs at least one option`);
  if (!selects && field.options !== null)
    throw ValidationException.field('options', 'only select and multiselect fields have options');
  if (field.options && new Set(field.options.map((o) => o.value)).size !== field.options.length)
    throw ValidationException.field('options', 'must not repeat a value');
  if (field.unique && !UNIQUE_TYPES.includes(field.type))
    throw ValidationException.field('unique', `a ${field.type} field cannot be unique`);
  if (field.unique && field.dated) throw ValidationException.field('unique', 'a dated field cannot be unique');
}
