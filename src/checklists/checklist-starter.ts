import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { ancestry, headOf } from '../approvals/approval-chain';
import { recordEvent } from '../common/outbox/outbox';
import { CompanyClock } from '../common/time/company-clock';
import { RecipientRule } from '../common/outbox/reactions';
import { TasksService } from '../tasks/tasks.service';
import { Recipients } from '../users/recipients.service';
import { applies, dueDate, isDone, pastDue } from './checklist-rules';
import { ChecklistEmployee, ChecklistsRepository } from './checklists.repository';
import { Checklist, ChecklistItem, ChecklistTemplate, ChecklistTrigger, TemplateItem } from './entities/checklist.entities';
import './checklists.events';

/** The tasks of checklist items: the item's id is the task's source record. */
export const ITEM_TASKS = 'checklist-item';

/** What a dated change sets that a checklist's conditions read instead of the employee's current values. */
const OVERLAID = { department: 'departmentId', job_title: 'jobTitleId', employment_status: 'employmentStatusId' } as const;

/**
 * Starts, moves, cancels and completes checklists (issue 67, docs/api/checklists.md), inside the
 * transaction of what causes it: the relay's for a recorded hire, termination or change (the
 * subscriber), the request's for a completion. Each item is a task of its assignees (their users,
 * resolved when the checklist starts; nobody: the employee's HR).
 */
@Injectable()
export class ChecklistStarter {
  constructor(
    private readonly repository: ChecklistsRepository,
    private readonly tasks: TasksService,
    private readonly recipients: Recipients,
    private readonly clock: CompanyClock,
  ) {}

  /**
   * Starts the templates of `trigger` that apply to the employee, once per template and `origin`
   * (`hire`, `termination`, `change:<id>`): replaying the event starts nothing more; nor one whose
   * every item would be past due today (pastDue). `set`: the
   * dated fields the change sets, with their values. How many started.
   */
  async start(
    em: EntityManager,
    employeeId: number,
    trigger: ChecklistTrigger,
    origin: string,
    effectiveDate: string,
    set: Record<string, unknown> = {},
  ): Promise<number> {
    const templates = await em.getRepository(ChecklistTemplate).find({ where: { trigger }, order: { id: 'ASC' } });
    if (!templates.length) return 0;
    const employee = await this.repository.employee(em, employeeId);
    if (!employee) return 0;
    for (const [field, prop] of Object.entries(OVERLAID))
      if (field in set) employee[prop] = set[field] === null ? null : Number(set[field]);
    const departments = await this.repository.departments(em);
    const subject = {
      departments: ancestry(departments, employee.departmentId),
      jobTitle: employee.jobTitleId,
      employmentStatus: employee.employmentStatusId,
    };
    const resolve = this.recipients.resolver();
    const today = await this.clock.today();
    let started = 0;
    for (const template of templates) {
      if (!applies(template, trigger, subject, Object.keys(set)) || pastDue(effectiveDate, template.items, today)) continue;
      const repo = em.getRepository(Checklist);
      if (await repo.exists({ where: { templateId: template.id, employeeId, origin } })) continue;
      const checklist = await repo.save(
        repo.create({
          templateId: template.id,
          templateName: template.name,
          employeeId,
          trigger,
          origin,
          effectiveDate,
          status: 'Open',
          cancelReason: null,
          completedAt: null,
        }),
      );
      for (const [position, item] of template.items.entries()) {
        const rules = this.assigneeRules(item, employee, departments);
        let users = await resolve(rules);
        if (!users.length) users = await resolve([{ hrOf: employeeId }]);
        const saved = await em.getRepository(ChecklistItem).save(
          em.getRepository(ChecklistItem).create({
            checklistId: checklist.id,
            position,
            title: item.title,
            description: item.description,
            assignee: item.assignee,
            assignees: users,
            offsetDays: item.offset_days,
            dueDate: dueDate(effectiveDate, item),
            documentTypeId: item.document_type,
            required: item.required,
            status: 'Open',
            cancelReason: null,
            completedBy: null,
            completedAt: null,
            remindedOn: null,
          }),
        );
        await this.tasks.assign(
          ITEM_TASKS,
          saved.id,
          users,
          { title: item.title, description: item.description, dueDate: saved.dueDate, link: `/checklists/${checklist.id}` },
          em,
        );
      }
      await recordEvent(em, 'checklist.started', this.payload(checklist));
      started++;
    }
    return started;
  }

  /** Who an item's role names for this employee. */
  private assigneeRules(
    item: TemplateItem,
    employee: ChecklistEmployee,
    departments: ReadonlyMap<number, { parent: number | null; head: number | null }>,
  ): RecipientRule[] {
    const named = /^employee:(\d+)$/.exec(item.assignee);
    if (named) return [{ usersOf: Number(named[1]) }];
    if (item.assignee === 'employee') return [{ usersOf: employee.id }];
    if (item.assignee === 'admins') return [{ admins: true }];
    const who = item.assignee === 'supervisor' ? employee.supervisorId : headOf(departments, employee.departmentId, employee.id);
    return who === null ? [] : [{ usersOf: who }];
  }

  /** The employee's open checklists of this origin. */
  private open(em: EntityManager, employeeId: number, origin: string): Promise<Checklist[]> {
    return em.getRepository(Checklist).find({ where: { employeeId, origin, status: 'Open' } });
  }

  /**
   * A corrected or moved effective date: the open checklists of `origin` (now `to`, for a change
   * corrected by a new one) and every due day of their items move with it, their tasks too.
   */
  async move(em: EntityManager, employeeId: number, origin: string, effectiveDate: string, to = origin): Promise<number> {
    const lists = await this.open(em, employeeId, origin);
    for (const c of lists) {
      await em.getRepository(Checklist).update({ id: c.id }, { effectiveDate, origin: to });
      for (const item of await em.getRepository(ChecklistItem).find({ where: { checklistId: c.id } })) {
        const due = dueDate(effectiveDate, { offset_days: item.offsetDays });
        if (due === item.dueDate) continue;
        await em.getRepository(ChecklistItem).update({ id: item.id }, { dueDate: due, remindedOn: null });
        await this.tasks.reschedule(ITEM_TASKS, item.id, due, em);
      }
    }
    return lists.length;
  }

  /** What started them was cancelled or undone: the open checklists of `origin` and their open items are Cancelled, their tasks taken back. */
  async cancel(em: EntityManager, employeeId: number, origin: string, reason: string): Promise<number> {
    const lists = await this.open(em, employeeId, origin);
    for (const c of lists) {
      await this.cancelItems(em, c.id, reason);
      await em.getRepository(Checklist).update({ id: c.id, status: 'Open' }, { status: 'Cancelled', cancelReason: reason });
    }
    return lists.length;
  }

  /** A document of this type was uploaded for the employee: its open items waiting for one are Completed (by nobody: the document). */
  async documentArrived(em: EntityManager, employeeId: number, documentTypeId: number): Promise<number> {
    const lists = await em.getRepository(Checklist).find({ where: { employeeId, status: 'Open' }, select: { id: true } });
    if (!lists.length) return 0;
    const waiting = await em.getRepository(ChecklistItem).find({
      where: { checklistId: In(lists.map((c) => c.id)), documentTypeId, status: 'Open' },
      select: { id: true },
    });
    let n = 0;
    for (const item of waiting) if (await this.complete(em, item.id, null)) n++;
    return n;
  }

  /** The employee left (its termination took effect): its open onboarding is Cancelled with its open items, with the reason. */
  leaverLeft(em: EntityManager, employeeId: number, day: string): Promise<number> {
    return this.cancel(em, employeeId, 'hire', `the employee left on ${day}`);
  }

  private async cancelItems(em: EntityManager, checklistId: number, reason: string): Promise<void> {
    const open = await em.getRepository(ChecklistItem).find({ where: { checklistId, status: 'Open' }, select: { id: true } });
    if (!open.length) return;
    const ids = open.map((i) => i.id);
    await em.getRepository(ChecklistItem).update({ id: In(ids), status: 'Open' }, { status: 'Cancelled', cancelReason: reason });
    await this.tasks.withdraw(ITEM_TASKS, ids, em);
  }

  /**
   * An open item is Completed by `userId` (null: a document that completed it); the other
   * assignees' tasks too; the checklist is Completed when its required items all are. Whether it moved.
   */
  async complete(em: EntityManager, itemId: number, userId: number | null, at = new Date()): Promise<boolean> {
    const moved = await em
      .getRepository(ChecklistItem)
      .update({ id: itemId, status: 'Open' }, { status: 'Completed', completedBy: userId, completedAt: at });
    if (moved.affected !== 1) return false;
    await this.tasks.completeAll(ITEM_TASKS, [itemId], undefined, em);
    const item = await em.getRepository(ChecklistItem).findOneByOrFail({ id: itemId });
    const checklist = await em.getRepository(Checklist).findOneByOrFail({ id: item.checklistId });
    if (checklist.status === 'Open') await this.settle(em, checklist);
    return true;
  }

  /** A checklist whose required items are all Completed is Completed, with checklist.completed. */
  private async settle(em: EntityManager, c: Checklist): Promise<void> {
    const items = await em
      .getRepository(ChecklistItem)
      .find({ where: { checklistId: c.id }, select: { status: true, required: true } });
    if (!isDone(items)) return;
    const moved = await em
      .getRepository(Checklist)
      .update({ id: c.id, status: 'Open' }, { status: 'Completed', completedAt: new Date() });
    if (moved.affected === 1) await recordEvent(em, 'checklist.completed', this.payload(c));
  }

  private payload(c: Checklist) {
    return { id: c.id, employee: c.employeeId, template: c.templateId, trigger: c.trigger, effective_date: c.effectiveDate };
  }
}
