import { EntityManager } from 'typeorm';
import { DomainException, NotFoundException } from '../../common/errors/domain.exception';
import { EmployeeMapper } from './employee-mapper';
import { etagOf } from './employee-views';
import { Employee } from '../entities/employee.entity';

/**
 * The employee as of the lock `em` holds; 412 PRECONDITION_FAILED when `ifMatch` (If-Match: ETags
 * or `*`) names none of its current version (as GET /employees/{id} answers it), 404 when it is
 * gone. Without If-Match, any version (If-Match is optional: docs/api/employees.md).
 */
export async function assertEmployeeVersion(
  em: EntityManager,
  mapper: EmployeeMapper,
  id: number,
  ifMatch: string | undefined,
): Promise<Employee> {
  const current = await em.findOne(Employee, { where: { id } });
  if (!current) throw new NotFoundException('Employee');
  const tags = ifMatch?.split(',').map((t) => t.trim().replace(/^W\//, ''));
  if (tags && !tags.includes('*') && !tags.includes(etagOf(await mapper.toDto(current))))
    throw new DomainException('PRECONDITION_FAILED', `Employee ${id} changed since that version was read: read it again`);
  return current;
}
