import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { AuthUser } from '../common/auth/auth-user';
import { RecordSql } from '../common/database/record-sql';
import { findPage, ListRequest } from '../common/paging/list-request';
import { Page } from '../common/paging/page';
import { CustomField } from './entities/custom-field.entity';

const SAMPLE_MANAGER = { id: 1, level: 'Manager', employeeId: 1 } as AuthUser;

/** The custom fields' SQL (issue 66). */
@Injectable()
export class CustomFieldsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** A page of the definitions `caller` reads. */
  visiblePage(caller: AuthUser, request: ListRequest): Promise<Page<CustomField>> {
    return findPage(this.visibleTo(caller), request);
  }

  /** One definition `caller` reads, or null. */
  @RecordSql(SAMPLE_MANAGER, 1)
  visibleOne(caller: AuthUser, id: number): Promise<CustomField | null> {
    return this.visibleTo(caller).andWhere('f.id = :id', { id }).getOne();
  }

  /** The position after the highest (0 for the first field). */
  async nextPosition(em: EntityManager): Promise<number> {
    const last = await em
      .getRepository(CustomField)
      .createQueryBuilder('f')
      .select('MAX(f.position)', 'p')
      .getRawOne<{ p: unknown }>();
    return last?.p === null || last?.p === undefined ? 0 : Number(last.p) + 1;
  }

  /** Every definition for an Admin; else those naming the caller's level, or `self` when the caller is an employee. */
  private visibleTo(caller: AuthUser): SelectQueryBuilder<CustomField> {
    const qb = this.ds.getRepository(CustomField).createQueryBuilder('f');
    if (caller.level === 'Admin') return qb;
    return caller.employeeId
      ? qb.where('(f.visible_to LIKE :level OR f.visible_to LIKE :self)', { level: `%,${caller.level},%`, self: '%,self,%' })
      : qb.where('f.visible_to LIKE :level', { level: `%,${caller.level},%` });
  }
}
