/**
 * A front end's first calls, type-checked under `strict` (`npm run client:check`): sign in, list
 * employees sorted by last name and filtered by status and departments, read one, apply for leave, read an insight and the task list.
 * The @ts-expect-error lines must fail to compile: a sort field the list does not have, a value
 * outside an enum, a body without a required field. The script is compiled, not run.
 */
import { createHrClient, type Schemas } from '../src/index';

export async function firstCalls(baseUrl: string, username: string, password: string): Promise<string[]> {
  const anonymous = createHrClient({ baseUrl });
  const signedIn = await anonymous.POST('/oauth/token', { body: { grant_type: 'password', username, password } });
  if (!signedIn.data) throw new Error(signedIn.error?.error.message ?? 'sign-in failed');
  const token: string = signedIn.data.access_token;
  const api = createHrClient({ baseUrl, token });

  // Filters are typed by the list's filter fields: one value, or several ids as a,b (any of them).
  const page = await api.GET('/employees', {
    params: { query: { sortField: 'last_name', sortOrder: 'ascend', limit: 20, filters: { status: 'Active', department: '1,2' } } },
  });
  const employees: Array<Schemas['EmployeeListItemDto']> = page.data?.data ?? [];
  const total: number = page.data?.total ?? 0;
  const first = employees[0];
  if (!first) return [];

  const one = await api.GET('/employees/{id}', { params: { path: { id: first.id } } });
  const employee: Schemas['EmployeeDto'] | undefined = one.data?.data;
  // Every field the server always sends is required: no optional chaining on the record's fields.
  const names: string = `${employee?.first_name ?? ''} ${employee?.last_name ?? ''}`;
  const department: number | null | undefined = employee?.department;

  const leave = await api.POST('/leaves', {
    body: { leave_type: 1, date_start: '2026-03-02', date_end: '2026-03-03', reason: 'family' },
  });
  const status: Schemas['LeaveRequestDto']['status'] | undefined = leave.data?.data.status;

  const insight = await api.GET('/insights/leave-summary/{period}', { params: { path: { period: '1year' } } });
  const tasks = await api.GET('/tasks', { params: { query: { limit: 50 } } });
  const open = (tasks.data?.data ?? []).filter((t) => t.status === 'Open').map((t) => t.title);

  // @ts-expect-error: last_nam is not a sort field of /employees
  await api.GET('/employees', { params: { query: { sortField: 'last_nam' } } });
  // @ts-expect-error: salary is not a filter field of /employees
  await api.GET('/employees', { params: { query: { filters: { salary: 1 } } } });
  // @ts-expect-error: Retired is not an employee status
  await api.GET('/employees', { params: { query: { filters: { status: 'Retired' } } } });
  // @ts-expect-error: Robot is not a gender
  await api.POST('/employees', { body: { employee_id: 'E1', first_name: 'A', last_name: 'B', joined_date: '2026-01-01', gender: 'Robot' } });
  // @ts-expect-error: last_name is required to create an employee
  await api.POST('/employees', { body: { employee_id: 'E1', first_name: 'A', joined_date: '2026-01-01' } });

  // A diff's causes narrow on their kind.
  const diff = await api.GET('/payroll_config/payrolls/{id}/diff', { params: { path: { id: 1 }, query: { limit: 10 } } });
  const raises = (diff.data?.data ?? []).flatMap((row) =>
    row.causes.flatMap((cause) => (cause.kind === 'salary' ? [`${cause.name}: ${cause.old ?? '-'} → ${cause.new ?? '-'}`] : [])),
  );

  return [names, String(department), String(total), String(status), JSON.stringify(insight.data?.data), ...open, ...raises];
}
