import { EntityManager, Not, Repository } from 'typeorm';
import { DomainException, NotFoundException } from '../../common/errors/domain.exception';
import { EmployeeMapper } from './employee-mapper';
import { etagOf } from './employee-views';
import { Employee } from '../entities/employee.entity';
import { ExtensionReader } from './employee-extensions';

/**
 * The employee as of the lock `em` holds; 412 PRECONDITION_FAILED when `ifMatch` (If-Match: ETags
 * or `*`) names none of its current version (as GET /employees/{id} answers `reader`), 404 when it is
 * gone. Without If-Match, any version (If-Match is optional: docs/api/employees.md).
 */
export async function assertEmployeeVersion(
  em: EntityManager,
  mapper: EmployeeMapper,
  id: number,
  ifMatch: string | undefined,
  reader: ExtensionReader,
): Promise<Employee> {
  const current = await em.findOne(Employee, { where: { id } });
  if (!current) throw new NotFoundException('Employee');
  const tags = ifMatch?.split(',').map((t) => t.trim().replace(/^W\//, ''));
  if (tags && !tags.includes('*') && !tags.includes(etagOf(await mapper.toDto(current, reader, em))))
    throw new DomainException('PRECONDITION_FAILED', `Employee ${id} changed since that version was read: read it again`);
  return current;
}

/** 409 DUPLICATE when another employee has `e`'s employee_id or work e-mail. */
export async function assertUniqueIds(employees: Repository<Employee>, e: Employee): Promise<void> {
  const others = e.id === undefined ? {} : { id: Not(e.id) };
  if (await employees.exists({ where: { employeeId: e.employeeId, ...others } })) {
    throw new DomainException('DUPLICATE', `employee_id ${e.employeeId} is already used`, [
      { field: 'employee_id', message: 'already used' },
    ]);
  }
  if (e.workEmail && (await employees.exists({ where: { workEmail: e.workEmail, ...others } }))) {
    throw new DomainException('DUPLICATE', `work_email ${e.workEmail} is already used`, [
      { field: 'work_email', message: 'already used' },
    ]);
  }
}
