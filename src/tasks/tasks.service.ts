import { Inject, Injectable, Logger } from '@nestjs/common';
import { isTaskSource } from '../common/outbox/task-sources';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { AuthUser } from '../common/auth/auth-user';
import { isUniqueViolation } from '../common/errors/db-errors';
import { NotFoundException, ValidationException } from '../common/errors/domain.exception';
import { ListSpec, parseListQuery, findTablePage } from '../common/paging/list-request';
import { ListQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { transaction } from '../common/database/transaction';
import { recordEvent } from '../common/outbox/outbox';
import './tasks.events';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { UsersService } from '../users/users.service';
import { CreateTaskDto, TaskDto } from './dto/task.dto';
import { Task, TASK_STATUSES, TaskPriority, TaskStatus } from './entities/task.entity';

/** A task the service opens or completes itself is of a source some module declared (common/outbox/task-sources.ts). */
function assertTaskSource(source: string): void {
  if (!isTaskSource(source))
    throw new Error(`task source ${source} is declared by no module (declareTaskSources beside its reaction)`);
}

export interface NewTask {
  title: string;
  description?: string | null;
  priority?: TaskPriority;
  dueDate?: string | null;
  /** A path under the API prefix, e.g. `/leaves/5`. */
  link?: string | null;
}

function toTaskDto(t: Task): TaskDto {
  return {
    id: t.id,
    user: t.userId,
    title: t.title,
    description: t.description,
    status: t.status,
    priority: t.priority,
    due_date: t.dueDate,
    link: t.link,
    source: t.source,
    source_id: t.sourceId,
    created_at: t.createdAt.toISOString(),
    completed_at: t.completedAt ? t.completedAt.toISOString() : null,
  };
}

/** A user's tasks: newest first unless sorted otherwise. */
export const TASK_LIST_SPEC: ListSpec = {
  idColumn: 't.id',
  sortFields: { id: 't.id', created_at: 't.id', due_date: 't.due_date' },
  defaultSort: { field: 'id', order: 'descend' },
  filterFields: {
    status: { column: 't.status', type: 'string', values: TASK_STATUSES },
    source: { column: 't.source', type: 'string' },
  },
};

/**
 * What a module does when a user sets a task of its source Open or Completed (POST
 * /task-list/{id}/status), in the transaction that saves it: a checklist item completes with its
 * task. Throwing refuses the change.
 */
export type TaskStatusHook = (em: EntityManager, sourceId: number, status: TaskStatus, userId: number) => Promise<void>;

/** Each user's task list (docs/api/decisions.md §11): the caller's own tasks; Admins add tasks for users. */
@Injectable()
export class TasksService {
  private readonly logger = new Logger('Tasks');
  private readonly statusHooks = new Map<string, TaskStatusHook>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(Task) private readonly tasks: Repository<Task>,
    private readonly users: UsersService,
  ) {}

  /** The caller's tasks, newest first unless sorted otherwise; `filters={"status":"Open"}`. */
  async list(caller: AuthUser, query: ListQueryDto): Promise<Page<TaskDto>> {
    const page = await findTablePage(this.tasks, 't', parseListQuery(query, TASK_LIST_SPEC), { user_id: caller.id });
    return page.map(toTaskDto);
  }

  /** Open or Completed, for the task's owner; another user's task is a 404. */
  async setStatus(caller: AuthUser, id: number, status: TaskStatus): Promise<TaskDto> {
    const task = await this.tasks.findOne({ where: { id, userId: caller.id } });
    if (!task) throw new NotFoundException('Task');
    if (task.status !== status) {
      task.status = status;
      task.completedAt = status === 'Completed' ? new Date() : null;
      const hook = task.sourceId === null ? undefined : this.statusHooks.get(task.source);
      if (!hook) await this.tasks.save(task);
      else
        await transaction(this.tasks.manager.connection, async (em) => {
          await em.getRepository(Task).save(task);
          await hook(em, task.sourceId!, status, caller.id);
        });
    }
    return toTaskDto(task);
  }

  /** Registers what a source's module does when one of its tasks is set Open or Completed by its user. */
  onStatus(source: string, hook: TaskStatusHook): void {
    assertTaskSource(source);
    this.statusHooks.set(source, hook);
  }

  /** POST /tasks (Admins): a task for an active user. */
  async create(dto: CreateTaskDto): Promise<TaskDto> {
    if (!(await this.users.exists(dto.user))) throw ValidationException.field('user', 'does not exist');
    if (dto.link && !this.isApiPath(dto.link))
      throw ValidationException.field(
        'link',
        `must be a path under ${this.config.apiPrefix}/, such as ${this.config.apiPrefix}/employees/5`,
      );
    // The task and its event (the assignee's notification) in one transaction.
    const task = await transaction(this.tasks.manager.connection, async (em) => {
      const saved = await em.getRepository(Task).save(
        em.getRepository(Task).create({
          userId: dto.user,
          title: dto.title,
          description: dto.description ?? null,
          priority: dto.priority ?? 'Normal',
          dueDate: dto.due_date ?? null,
          link: dto.link ?? null,
          status: 'Open',
          source: 'manual',
          sourceId: null,
          completedAt: null,
        }),
      );
      await recordEvent(em, 'task.assigned', {
        id: saved.id,
        user: saved.userId,
        title: saved.title,
        priority: saved.priority,
        due_date: saved.dueDate,
        link: saved.link,
      });
      return saved;
    });
    return toTaskDto(task);
  }

  /**
   * A link a front end can follow without leaving the service: a path under the API base, with no
   * `..` segment and no backslash (browsers read `/\\host` like `//host`, another site).
   */
  private isApiPath(link: string): boolean {
    return (
      link.startsWith(`${this.config.apiPrefix}/`) &&
      !link.includes('\\') &&
      !link
        .split(/[?#]/)[0]
        .split('/')
        .some((segment) => segment === '..' || segment === '.')
    );
  }

  /**
   * Gives each of `userIds` the task of this source record, unless it has it already (the unique
   * index on source, source id and user decides, so concurrent events cannot double it).
   * Returns how many were added.
   */
  async assign(
    source: string,
    sourceId: number,
    userIds: number[],
    task: NewTask,
    em: EntityManager = this.tasks.manager,
  ): Promise<number> {
    assertTaskSource(source);
    let added = 0;
    for (const userId of new Set(userIds)) {
      try {
        await em.getRepository(Task).insert({
          userId,
          title: task.title.slice(0, 200),
          description: task.description?.slice(0, 2000) ?? null,
          priority: task.priority ?? 'Normal',
          dueDate: task.dueDate ?? null,
          link: task.link ? `${this.config.apiPrefix}${task.link}` : null,
          status: 'Open',
          source,
          sourceId,
          completedAt: null,
        });
        added++;
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
      }
    }
    return added;
  }

  /** Completes every open task of this source record (for whoever holds one). */
  async completeAll(
    source: string,
    sourceIds: number[],
    userId?: number,
    em: EntityManager = this.tasks.manager,
  ): Promise<number> {
    assertTaskSource(source);
    if (!sourceIds.length) return 0;
    const res = await em
      .getRepository(Task)
      .update(
        { source, sourceId: In(sourceIds), status: 'Open', ...(userId === undefined ? {} : { userId }) },
        { status: 'Completed', completedAt: new Date() },
      );
    return res.affected ?? 0;
  }

  /** Takes back the open tasks of these source records (what they asked for was cancelled). */
  async withdraw(source: string, sourceIds: number[], em: EntityManager = this.tasks.manager): Promise<number> {
    assertTaskSource(source);
    if (!sourceIds.length) return 0;
    const res = await em.getRepository(Task).delete({ source, sourceId: In(sourceIds), status: 'Open' });
    return res.affected ?? 0;
  }

  /** Moves the due date of every task of this source record. */
  async reschedule(
    source: string,
    sourceId: number,
    dueDate: string | null,
    em: EntityManager = this.tasks.manager,
  ): Promise<void> {
    assertTaskSource(source);
    await em.getRepository(Task).update({ source, sourceId }, { dueDate });
  }

  /** The user's tasks of these source records: source id → task id. */
  async tasksOf(source: string, sourceIds: number[], userId: number): Promise<Map<number, number>> {
    if (!sourceIds.length) return new Map();
    const rows = await this.tasks.find({
      where: { source, sourceId: In(sourceIds), userId },
      select: { id: true, sourceId: true },
    });
    return new Map(rows.map((t) => [t.sourceId!, t.id]));
  }

  /** For callers outside a request (a job): failures are logged, never thrown into the job. */
  async safely(what: string, work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (err) {
      this.logger.error(`${what}: ${(err as Error).message}`);
    }
  }
}
