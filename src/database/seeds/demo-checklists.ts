import { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ChecklistStarter } from '../../checklists/checklist-starter';
import { ChecklistTemplatesService } from '../../checklists/checklist-templates.service';
import { Checklist, ChecklistItem, ChecklistTemplate } from '../../checklists/entities/checklist.entities';
import { AuthUser } from '../../common/auth/auth-user';
import { transaction } from '../../common/database/transaction';
import { isUniqueViolation } from '../../common/errors/db-errors';
import { CompanyClock } from '../../common/time/company-clock';
import { addDays } from '../../common/time/days';
import { DocumentType } from '../../documents/entities/document-type.entity';
import { CreateEmployeeDto } from '../../employees/dto/employee.dto';
import { EmployeesService } from '../../employees/employees.service';
import { Employee } from '../../employees/entities/employee.entity';
import { PayrollEmployeesService } from '../../payroll/config/payroll-employees.service';
import { DEMO_MANAGER_EMPLOYEE } from './demo-company';

/** Next week's joiner (docs/api/checklists.md). */
export const DEMO_JOINER = 'E0062';
/** The leaver in 30 days (demo-history.ts). */
const DEMO_LEAVER = 'E0050';

/**
 * The demo's checklists (issue 67, docs/api/checklists.md): an onboarding and an offboarding
 * template; a joiner next week in the demo Manager's team whose onboarding is half done (the items
 * due before its first day), and the leaver in 30 days with its offboarding. The checklists are
 * started here as the relay would start them (it finds them started and starts nothing twice).
 * Idempotent: nothing when the onboarding template exists.
 */
export async function seedDemoChecklists(app: INestApplicationContext, actor: AuthUser): Promise<void> {
  const ds = app.get(DataSource);
  if (await ds.getRepository(ChecklistTemplate).exists({ where: { name: 'Onboarding' } })) return;
  const templates = app.get(ChecklistTemplatesService);
  const contract = await ds.getRepository(DocumentType).findOne({ where: { name: 'Employment contract' } });
  await templates.create({
    name: 'Onboarding',
    trigger: 'hire',
    items: [
      { title: 'Send the contract to sign', assignee: 'admins', offset_days: -14, document_type: contract?.id ?? null },
      { title: 'Order a laptop', assignee: 'admins', offset_days: -7 },
      { title: 'Name a buddy', assignee: 'supervisor', offset_days: -3 },
      { title: 'Create the accounts', assignee: 'department_head', offset_days: -1 },
      { title: 'First-week check-in', assignee: 'supervisor', offset_days: 5 },
      { title: 'Lunch with the team', assignee: 'employee', offset_days: 2, required: false },
    ],
  });
  await templates.create({
    name: 'Offboarding',
    trigger: 'termination',
    items: [
      { title: 'Plan the handover', assignee: 'supervisor', offset_days: -14 },
      { title: 'Exit interview', assignee: 'admins', offset_days: -3, required: false },
      { title: 'Return the laptop and badge', assignee: 'employee', offset_days: 0 },
      { title: 'Close the accounts', assignee: 'admins', offset_days: 0 },
      { title: 'Final pay check', assignee: 'admins', offset_days: 7 },
    ],
  });

  const today = await app.get(CompanyClock).today();
  const employees = ds.getRepository(Employee);
  const manager = await employees.findOneByOrFail({ employeeId: DEMO_MANAGER_EMPLOYEE });
  const joined = addDays(today, 7);
  const joiner = await app.get(EmployeesService).create(
    {
      employee_id: DEMO_JOINER,
      first_name: 'Lena',
      last_name: 'Okafor',
      joined_date: joined,
      work_email: 'lena.okafor.62@demo.example',
      custom_fields: { tshirt_size: 'M' },
      department: manager.departmentId ?? undefined,
      supervisor: manager.id,
      job_title: manager.jobTitleId ?? undefined,
    } as CreateEmployeeDto,
    actor,
  );
  // Paid as last month's joiner is.
  const payroll = app.get(PayrollEmployeesService);
  const like = await employees.findOneBy({ employeeId: 'E0061' });
  if (like) {
    const lines = await payroll.salary(actor, like.id);
    await payroll.setSalary(actor, joiner.id, { items: lines.map((l) => ({ component: l.component, amount: l.amount })) });
    await payroll.save(actor, { employee: joiner.id, pay_frequency: 4, currency: 'EUR' });
  }
  const leaver = await employees.findOneBy({ employeeId: DEMO_LEAVER });
  const starter = app.get(ChecklistStarter);
  // The outbox relay may start the joiner's onboarding meanwhile (its employee.created, with jobs on
  // Redis): a second attempt finds it started and starts nothing twice.
  for (let attempt = 1; ; attempt++) {
    try {
      await transaction(ds, async (em) => {
        await starter.start(em, joiner.id, 'hire', 'hire', joined);
        if (leaver?.terminationDate) await starter.start(em, leaver.id, 'termination', 'termination', leaver.terminationDate);
      });
      break;
    } catch (err) {
      if (attempt >= 3 || !isUniqueViolation(err)) throw err;
    }
  }
  // Half done: what was due before the first day but the accounts.
  const onboarding = await ds.getRepository(Checklist).findOneByOrFail({ employeeId: joiner.id, origin: 'hire' });
  const items = await ds.getRepository(ChecklistItem).find({ where: { checklistId: onboarding.id }, order: { position: 'ASC' } });
  await transaction(ds, async (em) => {
    for (const item of items.slice(0, 3)) await starter.complete(em, item.id, actor.id);
  });
}
