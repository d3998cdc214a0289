import { FindOptionsWhere, Not, Repository } from 'typeorm';
import { isForeignKeyViolation, isUniqueViolation } from '../common/errors/db-errors';
import { DomainException, NotFoundException } from '../common/errors/domain.exception';
import { findPage, ListSpec, parseListQuery } from '../common/paging/list-request';
import { ListQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { NamedReference } from './entities/reference.entities';

export interface ReferenceKind<E extends NamedReference, Dto> {
  /** "Job title": used in messages. */
  label: string;
  repo: Repository<E>;
  toDto(entity: E): Dto;
  /** Maps request fields to entity fields. */
  toEntity(input: Record<string, unknown>): Partial<E>;
  /** Extra checks before a write (references, ranges); `id` is set on update. */
  check?(entity: E, id?: number): Promise<void>;
  listSpec?: Partial<ListSpec>;
  /** Names must be unique (default true). */
  uniqueName?: boolean;
}

/**
 * CRUD of one reference table: unique names (409 DUPLICATE), deletes refused while the row is
 * referenced (409 IN_USE, enforced by the foreign keys), 404 for unknown ids.
 */
export class ReferenceCrud<E extends NamedReference, Dto> {
  private readonly spec: ListSpec;

  constructor(private readonly kind: ReferenceKind<E, Dto>) {
    this.spec = {
      idColumn: 'r.id',
      sortFields: { id: 'r.id', name: 'r.name' },
      searchColumns: ['r.name'],
      ...kind.listSpec,
    };
  }

  async list(query: ListQueryDto): Promise<Page<Dto>> {
    const page = await findPage(this.kind.repo.createQueryBuilder('r'), parseListQuery(query, this.spec));
    return page.map((e) => this.kind.toDto(e));
  }

  async get(id: number): Promise<Dto> {
    return this.kind.toDto(await this.find(id));
  }

  async create(input: Record<string, unknown>): Promise<Dto> {
    const entity = this.kind.repo.create(this.kind.toEntity(input) as E);
    await this.checkWrite(entity);
    return this.kind.toDto(await this.save(entity));
  }

  async update(id: number, input: Record<string, unknown>): Promise<Dto> {
    const entity = await this.find(id);
    Object.assign(entity, this.kind.toEntity(input));
    await this.checkWrite(entity, id);
    return this.kind.toDto(await this.save(entity));
  }

  async remove(id: number): Promise<{ id: number }> {
    await this.find(id);
    try {
      await this.kind.repo.delete(id);
    } catch (err) {
      if (isForeignKeyViolation(err))
        throw new DomainException('IN_USE', `${this.kind.label} ${id} is in use and cannot be deleted`);
      throw err;
    }
    return { id };
  }

  private async find(id: number): Promise<E> {
    const entity = await this.kind.repo.findOne({ where: { id } as FindOptionsWhere<E> });
    if (!entity) throw new NotFoundException(this.kind.label);
    return entity;
  }

  private async checkWrite(entity: E, id?: number): Promise<void> {
    if (this.kind.uniqueName !== false) {
      const where = { name: entity.name, ...(id ? { id: Not(id) } : {}) } as FindOptionsWhere<E>;
      if (await this.kind.repo.exists({ where })) this.duplicate(entity.name);
    }
    await this.kind.check?.(entity, id);
  }

  private async save(entity: E): Promise<E> {
    try {
      return await this.kind.repo.save(entity);
    } catch (err) {
      if (isUniqueViolation(err)) this.duplicate(this.kind.uniqueName === false ? String(entity.id ?? '') : entity.name);
      throw err;
    }
  }

  private duplicate(name: string): never {
    throw new DomainException('DUPLICATE', `${this.kind.label} "${name}" already exists`, [
      { field: 'name', message: 'already exists' },
    ]);
  }
}
