import { FindOptionsWhere, Not, Repository } from 'typeorm';
import { recordAudit } from '../audit/audit-log';
import type { ChangeEvent } from '../outbox/outbox';
import { transaction } from '../database/transaction';
import { isForeignKeyViolation, isUniqueViolation } from '../errors/db-errors';
import { DomainException, NotFoundException } from '../errors/domain.exception';
import { findPage, ListSpec, parseListQuery } from '../paging/list-request';
import { ListQueryDto } from '../paging/list-query.dto';
import { Page } from '../paging/page';

/** A table the CRUD helper serves: an id and, mostly, a name (unique unless the kind says otherwise). */
export interface CrudEntity {
  id: number;
  name?: string;
}

/** What a CRUD controller calls; every ReferenceCrud is one, whatever its entity and response types. */
export interface CrudOperations {
  list(query: ListQueryDto): Promise<Page<unknown>>;
  get(id: number): Promise<unknown>;
  create(input: Record<string, unknown>): Promise<unknown>;
  update(id: number, input: Record<string, unknown>): Promise<unknown>;
  remove(id: number): Promise<{ id: number }>;
}

export interface CrudKind<E extends CrudEntity> {
  /** "Job title": used in messages. */
  label: string;
  /** The collection's path in the API ("job-titles", "payroll_config/salary-components"): the audit log's resource. */
  resource: string;
  repo: Repository<E>;
  /**
   * API field → entity property, besides `id` (`{ parent: 'parentId' }`). The response is `id` plus
   * these fields; a write takes the ones present in the (validated) request.
   */
  fields: Record<string, keyof E & string>;
  /** The event each create, update and delete records beside its audit entry (for those who react to it). */
  event?: ChangeEvent;
  /** Extra checks before a write (references, ranges); `id` is set on update. */
  check?(entity: E, id?: number): Promise<void>;
  /** Refuses a delete (409 IN_USE naming the users) before the foreign keys would. */
  checkDelete?(id: number): Promise<void>;
  listSpec?: Partial<ListSpec>;
  /** Names must be unique (default true). */
  uniqueName?: boolean;
  /** Called once a create, update or delete has committed (a cache of the rows forgets them). */
  written?(): void;
}

/** A CRUD list's spec: sort by id or name, search the name, unless the kind says more (its controller documents the same). */
export function crudListSpec(extra?: Partial<ListSpec>): ListSpec {
  return { idColumn: 'r.id', sortFields: { id: 'r.id', name: 'r.name' }, searchColumns: ['r.name'], ...extra };
}

/**
 * CRUD of one reference-like table (reference data, leave types, projects, and payroll's components): unique names (409 DUPLICATE), deletes refused while the row is
 * referenced (409 IN_USE, enforced by the foreign keys), 404 for unknown ids.
 */
export class ReferenceCrud<E extends CrudEntity, Dto> implements CrudOperations {
  private readonly spec: ListSpec;

  constructor(private readonly kind: CrudKind<E>) {
    this.spec = crudListSpec(kind.listSpec);
  }

  async list(query: ListQueryDto): Promise<Page<Dto>> {
    const page = await findPage(this.kind.repo.createQueryBuilder('r'), parseListQuery(query, this.spec));
    return page.map((e) => this.toDto(e));
  }

  async get(id: number): Promise<Dto> {
    return this.toDto(await this.find(id));
  }

  async create(input: Record<string, unknown>): Promise<Dto> {
    const entity = this.kind.repo.create(this.toEntity(input) as E);
    await this.checkWrite(entity);
    return this.toDto(await this.save(entity, null));
  }

  async update(id: number, input: Record<string, unknown>): Promise<Dto> {
    const entity = await this.find(id);
    const before = this.toDto(entity) as object;
    Object.assign(entity, this.toEntity(input));
    await this.checkWrite(entity, id);
    return this.toDto(await this.save(entity, before));
  }

  async remove(id: number): Promise<{ id: number }> {
    const before = this.toDto(await this.find(id)) as object;
    await this.kind.checkDelete?.(id);
    try {
      await transaction(this.kind.repo.manager.dataSource, async (em) => {
        await em.getRepository(this.kind.repo.target).delete(id);
        await recordAudit(em, { action: 'delete', resource: this.kind.resource, resourceId: id, before, event: this.kind.event });
      });
      this.kind.written?.();
    } catch (err) {
      if (isForeignKeyViolation(err))
        throw new DomainException('IN_USE', `${this.kind.label} ${id} is in use and cannot be deleted`);
      throw err;
    }
    return { id };
  }

  private toDto(entity: E): Dto {
    const dto: Record<string, unknown> = { id: entity.id };
    for (const [api, prop] of Object.entries(this.kind.fields)) dto[api] = entity[prop] ?? null;
    return dto as Dto;
  }

  /** Only the fields present: null is a value (it clears), absent leaves the field as it is. */
  private toEntity(input: Record<string, unknown>): Partial<E> {
    const entity: Record<string, unknown> = {};
    for (const [api, prop] of Object.entries(this.kind.fields)) if (input[api] !== undefined) entity[prop] = input[api];
    return entity as Partial<E>;
  }

  private async find(id: number): Promise<E> {
    const entity = await this.kind.repo.findOne({ where: { id } as FindOptionsWhere<E> });
    if (!entity) throw new NotFoundException(this.kind.label);
    return entity;
  }

  private async checkWrite(entity: E, id?: number): Promise<void> {
    if (this.kind.uniqueName !== false) {
      const where = { name: entity.name, ...(id ? { id: Not(id) } : {}) } as FindOptionsWhere<E>;
      if (await this.kind.repo.exists({ where })) this.duplicate(entity.name ?? '');
    }
    await this.kind.check?.(entity, id);
  }

  /** Saves with its audit record (`before`: null for a create) in one transaction. */
  private async save(entity: E, before: object | null): Promise<E> {
    try {
      const written = await transaction(this.kind.repo.manager.dataSource, async (em) => {
        const saved = await em.getRepository(this.kind.repo.target).save(entity);
        await recordAudit(em, {
          action: before ? 'update' : 'create',
          resource: this.kind.resource,
          event: this.kind.event,
          resourceId: saved.id,
          before,
          after: this.toDto(saved) as object,
        });
        return saved;
      });
      this.kind.written?.();
      return written;
    } catch (err) {
      if (isUniqueViolation(err)) this.duplicate(this.kind.uniqueName === false ? String(entity.id ?? '') : (entity.name ?? ''));
      throw err;
    }
  }

  private duplicate(name: string): never {
    throw new DomainException('DUPLICATE', `${this.kind.label} "${name}" already exists`, [
      { field: 'name', message: 'already exists' },
    ]);
  }
}
