import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { AuthUser } from '../common/auth/auth-user';
import { transaction } from '../common/database/transaction';
import { DomainException, NotFoundException } from '../common/errors/domain.exception';
import { parseListQuery } from '../common/paging/list-request';
import { Page } from '../common/paging/page';
import { EmployeeAccessService } from '../employees/core/employee-access.service';
import { EmployeesService } from '../employees/employees.service';
import { TasksService } from '../tasks/tasks.service';
import { progress } from './checklist-rules';
import { ChecklistStarter, ITEM_TASKS } from './checklist-starter';
import { CHECKLIST_LIST_SPEC, ChecklistsRepository } from './checklists.repository';
import { ChecklistDto, ChecklistItemDto, ChecklistListQueryDto } from './dto/checklists.dto';
import { Checklist, ChecklistItem } from './entities/checklist.entities';

const instant = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * GET /checklists and the completion of their items (issue 67): a checklist is visible to whoever
 * sees its employee (the Admins, its HR, its supervisor, the employee itself) and to the assignees
 * of its items; an item is completed by one of its assignees or an administrator of the employee,
 * through the route or its task (either completes the other).
 */
@Injectable()
export class ChecklistsService implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly repository: ChecklistsRepository,
    private readonly starter: ChecklistStarter,
    private readonly tasks: TasksService,
    private readonly access: EmployeeAccessService,
    private readonly employees: EmployeesService,
  ) {}

  onModuleInit(): void {
    this.tasks.onStatus(ITEM_TASKS, async (em, itemId, status, userId) => {
      if (status === 'Completed') await this.starter.complete(em, itemId, userId);
      else if ((await em.getRepository(ChecklistItem).findOneBy({ id: itemId }))?.status !== 'Open')
        throw new DomainException('INVALID_STATE', 'The task of a completed or cancelled checklist item cannot be reopened');
    });
    // A deleted employee's checklists go with it (a cascade); their items' tasks with them.
    this.employees.onRemove(async (em, employeeId) => {
      const lists = await em.getRepository(Checklist).find({ where: { employeeId }, select: { id: true } });
      if (!lists.length) return;
      const items = await em
        .getRepository(ChecklistItem)
        .find({ where: { checklistId: In(lists.map((c) => c.id)) }, select: { id: true } });
      await this.tasks.withdraw(
        ITEM_TASKS,
        items.map((i) => i.id),
        em,
      );
    });
  }

  async list(caller: AuthUser, query: ChecklistListQueryDto): Promise<Page<ChecklistDto>> {
    const req = parseListQuery(query, CHECKLIST_LIST_SPEC);
    const page = await this.repository.page(await this.access.scopeOf(caller), req, query);
    const dtos = await this.dtos(caller, page.items);
    return page.map((c) => dtos.get(c.id)!);
  }

  async get(caller: AuthUser, id: number): Promise<ChecklistDto> {
    const { checklist } = await this.readable(caller, id);
    return (await this.dtos(caller, [checklist])).get(id)!;
  }

  /** POST /checklists/{id}/items/{item}/complete: an assignee or an administrator of the employee; 409 when it is not Open. */
  async complete(caller: AuthUser, id: number, itemId: number): Promise<ChecklistDto> {
    const { checklist, administers } = await this.readable(caller, id);
    const item = await this.ds.getRepository(ChecklistItem).findOneBy({ id: itemId, checklistId: id });
    if (!item) throw new NotFoundException('Checklist item');
    if (!administers && !this.assigned(caller, checklist, item))
      throw new DomainException('FORBIDDEN', 'Only an assignee of the item or an administrator of the employee completes it');
    const done = await transaction(this.ds, (em) => this.starter.complete(em, itemId, caller.id));
    if (!done)
      throw new DomainException('INVALID_STATE', `The item is ${item.status === 'Open' ? 'no longer Open' : item.status}`);
    return this.get(caller, id);
  }

  /** The checklist if the caller sees its employee or holds one of its items (404 otherwise), and whether it administers the employee. */
  private async readable(caller: AuthUser, id: number): Promise<{ checklist: Checklist; administers: boolean }> {
    const checklist = await this.ds.getRepository(Checklist).findOneBy({ id });
    if (!checklist) throw new NotFoundException('Checklist');
    // One scope and one read of the employee: whether the caller sees it, and whether it administers it.
    const scope = await this.access.scopeOf(caller);
    const employee = await this.access.employee(checklist.employeeId);
    const sees = !!employee && this.access.canSee(scope, employee);
    const administers = sees && (scope.kind === 'all' || scope.kind === 'departments');
    if (sees) return { checklist, administers };
    const items = await this.ds.getRepository(ChecklistItem).findBy({ checklistId: id });
    if (!items.some((i) => this.assigned(caller, checklist, i))) throw new NotFoundException('Checklist');
    return { checklist, administers };
  }

  /** Whether the caller is an assignee of the item: holds its task, or is the employee its role names. */
  private assigned(caller: AuthUser, checklist: Checklist, item: ChecklistItem): boolean {
    if (item.assignees.includes(caller.id)) return true;
    if (caller.employeeId === null) return false;
    if (item.assignee === 'employee') return caller.employeeId === checklist.employeeId;
    return item.assignee === `employee:${caller.employeeId}`;
  }

  private async dtos(caller: AuthUser, lists: readonly Checklist[]): Promise<Map<number, ChecklistDto>> {
    const items = lists.length
      ? await this.ds
          .getRepository(ChecklistItem)
          .find({ where: { checklistId: In(lists.map((c) => c.id)) }, order: { checklistId: 'ASC', position: 'ASC' } })
      : [];
    const tasks = await this.tasks.tasksOf(
      ITEM_TASKS,
      items.map((i) => i.id),
      caller.id,
    );
    const out = new Map<number, ChecklistDto>();
    for (const c of lists) {
      const own = items.filter((i) => i.checklistId === c.id);
      out.set(c.id, {
        id: c.id,
        template: c.templateId,
        template_name: c.templateName,
        employee: c.employeeId,
        trigger: c.trigger,
        effective_date: c.effectiveDate,
        status: c.status,
        cancel_reason: c.cancelReason,
        progress: progress(own),
        created_at: c.createdAt.toISOString(),
        completed_at: instant(c.completedAt),
        items: own.map((i): ChecklistItemDto => ({
          id: i.id,
          title: i.title,
          description: i.description,
          assignee: i.assignee,
          assignees: i.assignees,
          due_date: i.dueDate,
          status: i.status,
          required: i.required,
          document_type: i.documentTypeId,
          completed_by: i.completedBy,
          completed_at: instant(i.completedAt),
          cancel_reason: i.cancelReason,
          task: tasks.get(i.id) ?? null,
        })),
      });
    }
    return out;
  }
}
