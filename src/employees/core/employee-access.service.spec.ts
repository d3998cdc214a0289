import { Repository } from 'typeorm';
import { AuthUser } from '../../common/auth/auth-user';
import { UserLevel } from '../../common/auth/user-level';
import { employeeListCondition, employeeRecordsCondition } from './employees.repository';
import { EmployeeAccessService, EmployeeRef, isApproverOf } from './employee-access.service';
import { Employee } from '../entities/employee.entity';

const caller = (level: UserLevel, employeeId: number | null, departmentIds: number[] = []): AuthUser => ({
  id: 1,
  username: 'u',
  email: 'u@x.test',
  level,
  employeeId,
  departmentIds,
  mustChangePassword: false,
  grantId: 'g',
});

// Department tree: 1 -> 2 -> 3, and 4 on its own.
const subtreeCalls: number[][] = [];
const tree = {
  subtree: async (ids: number[]) => {
    subtreeCalls.push(ids);
    return [...new Set(ids.flatMap((id) => ({ 1: [1, 2, 3], 2: [2, 3], 3: [3], 4: [4] })[id] ?? [id]))];
  },
};

// Employees: 10 manager (dept 1), 11 and 12 report to 10 (dept 2, 3), 13 elsewhere (dept 4), 14 reports to 11.
const emp: Record<number, EmployeeRef> = {
  10: { id: 10, departmentId: 1, supervisorId: null },
  11: { id: 11, departmentId: 2, supervisorId: 10 },
  12: { id: 12, departmentId: 3, supervisorId: 10 },
  13: { id: 13, departmentId: 4, supervisorId: null },
  14: { id: 14, departmentId: 2, supervisorId: 11 },
};

describe('EmployeeAccessService', () => {
  const repo = { findOne: async ({ where }: { where: { id: number } }) => emp[where.id] ?? null };
  const scopes = new EmployeeAccessService(repo as unknown as Repository<Employee>, tree);
  // The by-id reader needs a data source; here it reads the fixture.
  (scopes as unknown as { employeeById: (id: number) => Promise<EmployeeRef | null> }).employeeById = (id) =>
    repo.findOne({ where: { id } });
  const visible = async (c: AuthUser) => {
    const scope = await scopes.scopeOf(c);
    return Object.values(emp)
      .filter((e) => scopes.canSee(scope, e))
      .map((e) => e.id);
  };

  it('Admin sees everyone', async () => {
    expect(await visible(caller('Admin', null))).toEqual([10, 11, 12, 13, 14]);
  });

  it('Restricted Admin sees its departments and their children', async () => {
    expect(await visible(caller('Restricted Admin', null, [2]))).toEqual([11, 12, 14]);
    expect(await visible(caller('Restricted Admin', null, [1]))).toEqual([10, 11, 12, 14]);
    expect(await visible(caller('Restricted Admin', null, []))).toEqual([]);
  });

  it('Manager sees itself and its direct reports only', async () => {
    expect(await visible(caller('Manager', 10))).toEqual([10, 11, 12]);
    expect(await visible(caller('Manager', null))).toEqual([]);
  });

  it('Employee sees itself only', async () => {
    expect(await visible(caller('Employee', 14))).toEqual([14]);
    expect(await visible(caller('Employee', null))).toEqual([]);
  });

  it('visible() reports out-of-scope exactly like missing: NOT_FOUND', async () => {
    const me = caller('Employee', 14);
    await expect(scopes.visible(me, 13)).rejects.toThrow('Employee not found');
    await expect(scopes.visible(me, 99)).rejects.toThrow('Employee not found');
    await expect(scopes.visible(me, 14)).resolves.toMatchObject({ employee: emp[14], scope: { kind: 'self', selfId: 14 } });
  });

  it("computes a Restricted Admin's department subtree once per request (per AuthUser object)", async () => {
    subtreeCalls.length = 0;
    const request = caller('Restricted Admin', null, [1]);
    await scopes.visible(request, 11);
    await scopes.referable(request, 12);
    await scopes.administers(request, emp[14]);
    expect(subtreeCalls).toEqual([[1]]);
    await scopes.scopeOf(caller('Restricted Admin', null, [1])); // another request
    expect(subtreeCalls).toHaveLength(2);
  });

  it('references outside the scope look missing; approvers decide without seeing', async () => {
    const ra = caller('Restricted Admin', null, [2]);
    expect(await scopes.referable(ra, 14)).toBe(true);
    expect(await scopes.referable(ra, 13)).toBe(false);
    expect(await scopes.referable(ra, 99)).toBe(false);
    const approver = caller('Employee', 13);
    const subject = { supervisorId: 10, approver1Id: null, approver2Id: 13, approver3Id: null };
    expect(isApproverOf(approver, subject)).toBe(true);
    expect(isApproverOf(caller('Employee', 12), subject)).toBe(false);
    expect(isApproverOf(caller('Admin', null), { ...subject, approver2Id: null })).toBe(false);
  });

  it('lets Employees and Managers change only personal fields of their own record', async () => {
    const employee = await scopes.scopeOf(caller('Employee', 14));
    expect(scopes.forbiddenFields(employee, emp[14], ['first_name', 'mobile_phone', 'department', 'status'])).toEqual([
      'department',
      'status',
    ]);
    const manager = await scopes.scopeOf(caller('Manager', 10));
    expect(scopes.forbiddenFields(manager, emp[10], ['city'])).toEqual([]);
    expect(scopes.forbiddenFields(manager, emp[11], ['city', 'job_title'])).toEqual(['city', 'job_title']);
    expect(scopes.canSetStatusMessage(manager, emp[11])).toBe(true);
    expect(scopes.canSetStatusMessage(manager, emp[14])).toBe(false);
  });

  it('lets Admins and Restricted Admins change any field within their scope', async () => {
    expect(scopes.forbiddenFields(await scopes.scopeOf(caller('Admin', null)), emp[13], ['status'])).toEqual([]);
    const ra = await scopes.scopeOf(caller('Restricted Admin', null, [2]));
    expect(scopes.forbiddenFields(ra, emp[11], ['status'])).toEqual([]);
    expect(scopes.forbiddenFields(ra, emp[13], ['status'])).toEqual(['status']);
  });

  it('builds list conditions: Manager lists its reports, Employee lists nobody', async () => {
    expect(employeeListCondition(await scopes.scopeOf(caller('Admin', null)))).toBeNull();
    expect(employeeListCondition(await scopes.scopeOf(caller('Manager', 10)))).toEqual({
      sql: 'e.supervisor_id = :scopeSelf',
      params: { scopeSelf: 10 },
    });
    expect(employeeListCondition(await scopes.scopeOf(caller('Restricted Admin', null, [2])))).toEqual({
      sql: 'e.department_id IN (:...scopeDepartments)',
      params: { scopeDepartments: [2, 3] },
    });
    expect(employeeListCondition(await scopes.scopeOf(caller('Employee', 14)))?.sql).toBe('1 = 0');
  });

  it("builds record conditions: the caller's own records included", async () => {
    expect(employeeRecordsCondition(await scopes.scopeOf(caller('Manager', 10)))).toEqual({
      sql: '(e.supervisor_id = :scopeSelf OR e.id = :scopeSelf)',
      params: { scopeSelf: 10 },
    });
    expect(employeeRecordsCondition(await scopes.scopeOf(caller('Employee', 14)))).toEqual({
      sql: 'e.id = :scopeSelf',
      params: { scopeSelf: 14 },
    });
    expect(employeeRecordsCondition(await scopes.scopeOf(caller('Employee', null)))?.sql).toBe('1 = 0');
    expect(employeeRecordsCondition(await scopes.scopeOf(caller('Admin', null)))).toBeNull();
  });
});
