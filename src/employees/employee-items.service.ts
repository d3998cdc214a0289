import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, ObjectLiteral, Repository } from 'typeorm';
import { EmployeeScope } from './core/employee-access.service';
import { AuthUser } from '../common/auth/auth-user';
import { recordAudit } from '../common/audit/audit-log';
import { transaction } from '../common/database/transaction';
import { DomainException, ErrorDetail, NotFoundException, ValidationException } from '../common/errors/domain.exception';
import { ListSpec, parseListQuery, findTablePage } from '../common/paging/list-request';
import { ListQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { ReferenceKind, ReferenceService } from '../reference/reference.service';
import { StatusHistoryItemDto, StatusMessageDto } from './dto/employee-items.dto';
import { EmployeeAccessService } from './core/employee-access.service';
import {
  EmployeeCertification,
  EmployeeEducation,
  EmployeeItem,
  EmployeeLanguage,
  EmployeeSkill,
  EmployeeStatusMessage,
} from './entities/employee-items.entity';

type Input = Record<string, unknown>;

export interface ItemKind {
  path: 'skills' | 'educations' | 'certifications' | 'languages';
  label: string;
  entity: new () => EmployeeItem;
  /** Besides Admins and Restricted Admins in scope, the employee itself may maintain these. */
  selfEditable: boolean;
  /** Request field → [entity property, referenced table when it is an id]. */
  fields: Record<string, [string, ReferenceKind?]>;
}

export const ITEM_KINDS: Record<ItemKind['path'], ItemKind> = {
  skills: {
    path: 'skills',
    label: 'Skill',
    entity: EmployeeSkill,
    selfEditable: false,
    fields: { skill_id: ['skillId', 'skills'], details: ['details'] },
  },
  educations: {
    path: 'educations',
    label: 'Education',
    entity: EmployeeEducation,
    selfEditable: true,
    fields: {
      education_level: ['educationLevelId', 'education-levels'],
      institute: ['institute'],
      date_start: ['dateStart'],
      date_end: ['dateEnd'],
    },
  },
  certifications: {
    path: 'certifications',
    label: 'Certification',
    entity: EmployeeCertification,
    selfEditable: false,
    fields: {
      certification_id: ['certificationId', 'certifications'],
      institute: ['institute'],
      date_start: ['dateStart'],
      date_end: ['dateEnd'],
    },
  },
  languages: {
    path: 'languages',
    label: 'Language',
    entity: EmployeeLanguage,
    selfEditable: true,
    fields: {
      language_id: ['languageId', 'languages'],
      reading: ['reading'],
      speaking: ['speaking'],
      writing: ['writing'],
      understanding: ['understanding'],
    },
  },
};

/** An employee's skills, educations, certifications and languages: by id. */
export const ITEM_LIST_SPEC: ListSpec = { idColumn: 'i.id', sortFields: { id: 'i.id' } };
/** Status messages: newest first. */
export const STATUS_HISTORY_SPEC: ListSpec = {
  idColumn: 's.id',
  sortFields: { id: 's.id' },
  defaultSort: { field: 'id', order: 'descend' },
};

/**
 * Skills, educations, certifications, languages and the status message of an employee. Every
 * call checks the employee's scope first, exactly like the employee record (out of scope = 404).
 */
@Injectable()
export class EmployeeItemsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(EmployeeStatusMessage) private readonly employeeStatusMessageRepo: Repository<EmployeeStatusMessage>,
    private readonly access: EmployeeAccessService,
    private readonly reference: ReferenceService,
  ) {}

  async list(caller: AuthUser, employeeId: number, kind: ItemKind, query: ListQueryDto): Promise<Page<Input>> {
    await this.access.visible(caller, employeeId);
    const request = parseListQuery(query, ITEM_LIST_SPEC);
    const page = await findTablePage(this.dataSource.getRepository(kind.entity), 'i', request, { employee_id: employeeId });
    return page.map((item) => this.toDto(kind, item));
  }

  async create(caller: AuthUser, employeeId: number, kind: ItemKind, input: Input): Promise<Input> {
    await this.assertEditable(caller, employeeId, kind);
    const problems: ErrorDetail[] = [];
    const row: ObjectLiteral = { employeeId };
    for (const [field, [prop, ref]] of Object.entries(kind.fields)) {
      const value = input[field] ?? null;
      row[prop] = value;
      if (ref && value !== null && !(await this.reference.exists(ref, value as number))) {
        problems.push({ field, message: 'does not exist' });
      }
    }
    if (row.dateStart && row.dateEnd && (row.dateEnd as string) < (row.dateStart as string)) {
      problems.push({ field: 'date_end', message: 'must not be before date_start' });
    }
    if (problems.length) throw new ValidationException(problems);
    return transaction(this.dataSource, async (em) => {
      const repo = em.getRepository(kind.entity);
      const view = this.toDto(kind, await repo.save(repo.create(row)));
      await recordAudit(em, {
        action: 'create',
        resource: `employees/${kind.path}`,
        resourceId: view.id as number,
        employee: employeeId,
        after: view,
      });
      return view;
    });
  }

  async remove(caller: AuthUser, employeeId: number, kind: ItemKind, itemId: number): Promise<{ id: number }> {
    await this.assertEditable(caller, employeeId, kind);
    await transaction(this.dataSource, async (em) => {
      const repo = em.getRepository(kind.entity);
      const item = await repo.findOne({ where: { id: itemId, employeeId } });
      if (!item) throw new NotFoundException(kind.label);
      await repo.delete({ id: itemId, employeeId });
      await recordAudit(em, {
        action: 'delete',
        resource: `employees/${kind.path}`,
        resourceId: itemId,
        employee: employeeId,
        before: this.toDto(kind, item),
      });
    });
    return { id: itemId };
  }

  async status(caller: AuthUser, employeeId: number): Promise<StatusMessageDto> {
    await this.access.visible(caller, employeeId);
    const latest = await this.employeeStatusMessageRepo.findOne({ where: { employeeId }, order: { id: 'DESC' } });
    return { status: latest?.message ?? null, updated_at: latest ? latest.createdAt.toISOString() : null };
  }

  /** The employee itself, its Manager, a Restricted Admin in scope and Admins set it; each message is kept. */
  async setStatus(caller: AuthUser, employeeId: number, message: string): Promise<StatusMessageDto> {
    await this.access.visible(caller, employeeId);
    const row = await transaction(this.dataSource, async (em) => {
      const repo = em.getRepository(EmployeeStatusMessage);
      const saved = await repo.save(repo.create({ employeeId, message, createdBy: caller.id }));
      await recordAudit(em, {
        action: 'create',
        resource: 'employees/status',
        resourceId: saved.id,
        employee: employeeId,
        after: { status: message },
      });
      return repo.findOneOrFail({ where: { id: saved.id } });
    });
    return { status: row.message, updated_at: row.createdAt.toISOString() };
  }

  async statusHistory(caller: AuthUser, employeeId: number, query: ListQueryDto): Promise<Page<StatusHistoryItemDto>> {
    await this.access.visible(caller, employeeId);
    const request = parseListQuery(query, STATUS_HISTORY_SPEC);
    const page = await findTablePage(this.employeeStatusMessageRepo, 's', request, { employee_id: employeeId });
    return page.map((s) => ({ id: s.id, status: s.message, created_by: s.createdBy, created_at: s.createdAt.toISOString() }));
  }

  private async assertEditable(caller: AuthUser, employeeId: number, kind: ItemKind): Promise<void> {
    const { scope } = await this.access.visible(caller, employeeId);
    if (!this.mayEdit(caller, scope, employeeId, kind)) {
      throw new DomainException('FORBIDDEN', `You may not change the ${kind.path} of this employee`);
    }
  }

  private mayEdit(caller: AuthUser, scope: EmployeeScope, employeeId: number, kind: ItemKind): boolean {
    if (scope.kind === 'all' || scope.kind === 'departments') return true;
    return kind.selfEditable && caller.employeeId === employeeId;
  }

  private toDto(kind: ItemKind, item: EmployeeItem): Input {
    const dto: Input = { id: item.id };
    for (const [field, [prop]] of Object.entries(kind.fields)) dto[field] = (item as unknown as Input)[prop] ?? null;
    return dto;
  }
}
