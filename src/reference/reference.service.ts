import type { ChangeEvent } from '../common/outbox/outbox';
import './reference.events';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/config';
import { ReferenceNames } from './reference-names';
import { ReferenceRepository } from './reference.repository';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, Repository } from 'typeorm';
import { ValidationException } from '../common/errors/domain.exception';
import { compareMoney } from '../common/money/money';
import { DepartmentDto, PayGradeDto, ReferenceDto } from './dto/reference.dto';
import {
  Certification,
  Department,
  EducationLevel,
  EmploymentStatus,
  JobTitle,
  Language,
  NamedReference,
  Nationality,
  PayGrade,
  Skill,
} from './entities/reference.entities';
import { ReferenceCrud } from '../common/crud/crud';
import { idListsByName } from '../common/import/row-by-row';
import { ListSpec } from '../common/paging/list-request';

export const NAMED_KINDS = {
  'job-titles': { entity: JobTitle, label: 'Job title' },
  'employment-statuses': { entity: EmploymentStatus, label: 'Employment status', event: 'employment_status.changed' },
  nationalities: { entity: Nationality, label: 'Nationality' },
  languages: { entity: Language, label: 'Language' },
  skills: { entity: Skill, label: 'Skill' },
  certifications: { entity: Certification, label: 'Certification' },
  'education-levels': { entity: EducationLevel, label: 'Education level' },
} as const;
export type NamedKind = keyof typeof NAMED_KINDS;
/** Every reference table other modules point to by id, named by its URL segment. */
export type ReferenceKind = NamedKind | 'departments' | 'pay-grades';

/**
 * Reference data the employee fields point to, and the department tree that Restricted Admin
 * scope (EmployeeAccessService) and insights expand.
 */
/** Departments filter by parent (the controller documents the same). */
export const DEPARTMENT_LIST: Partial<ListSpec> = { filterFields: { parent: { column: 'r.parent_id', type: 'int' } } };

@Injectable()
export class ReferenceService {
  readonly departments: ReferenceCrud<Department, DepartmentDto>;
  readonly payGrades: ReferenceCrud<PayGrade, PayGradeDto>;
  private readonly named = new Map<NamedKind, ReferenceCrud<NamedReference, ReferenceDto>>();

  private readonly names: ReferenceNames<ReferenceKind>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly queries: ReferenceRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.names = new ReferenceNames(config.settingsCacheMs, (kind, id) =>
      this.queries.nameOf(this.repository(kind).metadata.tableName, id),
    );
    const departments = dataSource.getRepository(Department);
    this.departments = new ReferenceCrud<Department, DepartmentDto>({
      label: 'Department',
      resource: 'departments',
      event: 'department.changed',
      repo: departments,
      fields: { name: 'name', parent: 'parentId', head: 'headId' },
      check: (d, id) => this.checkParent(departments, d, id),
      listSpec: DEPARTMENT_LIST,
      written: () => this.names.forget('departments'),
    });
    this.payGrades = new ReferenceCrud<PayGrade, PayGradeDto>({
      label: 'Pay grade',
      resource: 'pay-grades',
      event: 'pay_grade.changed',
      repo: dataSource.getRepository(PayGrade),
      fields: { name: 'name', currency: 'currency', min_salary: 'minSalary', max_salary: 'maxSalary' },
      check: async (p) => {
        if (p.minSalary && p.maxSalary && compareMoney(p.minSalary, p.maxSalary) > 0) {
          throw ValidationException.field('max_salary', 'must not be below min_salary');
        }
      },
      written: () => this.names.forget('pay-grades'),
    });
    for (const [kind, { entity, label }] of Object.entries(NAMED_KINDS) as Array<[NamedKind, (typeof NAMED_KINDS)[NamedKind]]>) {
      this.named.set(
        kind,
        new ReferenceCrud<NamedReference, ReferenceDto>({
          label,
          resource: kind,
          event: (NAMED_KINDS[kind] as { event?: ChangeEvent }).event,
          repo: dataSource.getRepository<NamedReference>(entity),
          fields: { name: 'name' },
          written: () => this.names.forget(kind),
        }),
      );
    }
  }

  /** How many of `ids` exist in the reference table (other modules check their references with it). */
  async countExisting(kind: ReferenceKind, ids: readonly number[]): Promise<number> {
    const unique = [...new Set(ids)];
    if (!unique.length) return 0;
    return this.repository(kind).count({ where: { id: In(unique) } });
  }

  async exists(kind: ReferenceKind, id: number): Promise<boolean> {
    return (await this.countExisting(kind, [id])) === 1;
  }

  /** A nationality by its name, ignoring case (employees carry the name, docs/api/decisions.md §7). */
  async nationalityByName(name: string): Promise<ReferenceDto | null> {
    const row = await this.queries.nationalityByName(name);
    return row && { id: row.id, name: row.name };
  }

  /** The name of a row (an employee's nationality), kept in this process a while (ReferenceNames). */
  nameOf(kind: ReferenceKind, id: number): Promise<string | null> {
    return this.names.nameOf(kind, id);
  }

  /** The names of `ids` (nulls skipped), one query: a page of payslips names its employees' departments. */
  async namesOf(kind: ReferenceKind, ids: ReadonlyArray<number | null>): Promise<Map<number, string>> {
    const unique = [...new Set(ids.filter((id): id is number => id !== null))];
    if (!unique.length) return new Map();
    const rows = await this.repository(kind).find({ select: { id: true, name: true }, where: { id: In(unique) } });
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /** Every row's id by its name in lower case (an import reads references by name); a name used twice maps to all its ids. */
  async idsByName(kind: ReferenceKind): Promise<Map<string, number[]>> {
    return idListsByName(await this.repository(kind).find({ select: { id: true, name: true } }));
  }

  private repository(kind: ReferenceKind): Repository<NamedReference> {
    if (kind === 'departments') return this.dataSource.getRepository(Department);
    if (kind === 'pay-grades') return this.dataSource.getRepository(PayGrade);
    return this.dataSource.getRepository<NamedReference>(NAMED_KINDS[kind].entity);
  }

  /** Creates a department and returns its id (seeds, fixtures, benchmarks). */
  async addDepartment(name: string, parent: number | null): Promise<number> {
    return (await this.departments.create({ name, parent })).id;
  }

  crud(kind: NamedKind): ReferenceCrud<NamedReference, ReferenceDto> {
    return this.named.get(kind) as ReferenceCrud<NamedReference, ReferenceDto>;
  }

  /** The given departments and all their descendants (ReferenceRepository.subtree). */
  subtree(rootIds: number[]): Promise<number[]> {
    return this.queries.subtree(rootIds);
  }

  /** The department and its ancestors (ReferenceRepository.ancestors). */
  ancestors(id: number): Promise<number[]> {
    return this.queries.ancestors(id);
  }

  private async checkParent(repo: Repository<Department>, d: Department, id?: number): Promise<void> {
    if (d.headId !== null && d.headId !== undefined && !(await this.queries.employeeExists(d.headId)))
      throw ValidationException.field('head', 'employee does not exist');
    if (d.parentId === null || d.parentId === undefined) return;
    if (!(await repo.exists({ where: { id: d.parentId } })))
      throw ValidationException.field('parent', 'department does not exist');
    if (id !== undefined && (await this.subtree([id])).includes(d.parentId)) {
      throw ValidationException.field('parent', 'would make the department its own ancestor');
    }
  }
}
