import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, LessThan, MoreThan } from 'typeorm';
import { transaction } from '../common/database/transaction';
import { recordEvent } from '../common/outbox/outbox';
import { JobQueue } from '../common/queue/job-queue.service';
import { defineJob } from '../common/queue/queue.constants';
import { CompanyClock } from '../common/time/company-clock';
import { Checklist, ChecklistItem } from './entities/checklist.entities';
import './checklists.events';

/** Every hour: items past their due day record `checklist.item_overdue`, once a company day each. */
export const CHECKLIST_OVERDUE_JOB = defineJob<Record<string, never>>('schedule', 'checklist-overdue');
const EVERY_MS = 60 * 60_000;
const BATCH = 200;

/**
 * Overdue items (issue 67): an Open item whose due day has passed records `checklist.item_overdue`
 * once per company day until it is done (its reaction notifies its assignees); the item's
 * `reminded_on` moves in the same transaction by a conditional UPDATE, so two workers or two runs
 * of one day record it once. Reads the due index (status, due_date) a batch at a time.
 */
@Injectable()
export class ChecklistsJobs implements OnModuleInit {
  private readonly logger = new Logger('Checklists');

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly jobs: JobQueue,
    private readonly clock: CompanyClock,
  ) {}

  onModuleInit(): void {
    this.jobs.register(CHECKLIST_OVERDUE_JOB, async () => {
      const n = await this.remindOverdue();
      if (n) this.logger.log(`${n} checklist items overdue`);
    });
    void this.jobs.schedule(CHECKLIST_OVERDUE_JOB, EVERY_MS);
  }

  /** One run at `now`: how many items it recorded as overdue. */
  async remindOverdue(now = this.clock.now()): Promise<number> {
    const today = await this.clock.today(now);
    let done = 0;
    let after = 0;
    for (;;) {
      const due = await this.ds.getRepository(ChecklistItem).find({
        where: { status: 'Open', dueDate: LessThan(today), id: MoreThan(after) },
        order: { id: 'ASC' },
        take: BATCH,
        select: { id: true, remindedOn: true },
      });
      if (!due.length) return done;
      after = due[due.length - 1].id;
      const todo = due.filter((i) => i.remindedOn !== today).map((i) => i.id);
      if (todo.length)
        done += await transaction(this.ds, async (em) => {
          let n = 0;
          for (const id of todo) {
            const moved = await em
              .getRepository(ChecklistItem)
              .createQueryBuilder()
              .update()
              .set({ remindedOn: today })
              .where('id = :id AND status = :open AND (reminded_on IS NULL OR reminded_on <> :today)', {
                id,
                open: 'Open',
                today,
              })
              .execute();
            if (moved.affected !== 1) continue;
            const item = await em.getRepository(ChecklistItem).findOneByOrFail({ id });
            const checklist = await em.getRepository(Checklist).findOneByOrFail({ id: item.checklistId });
            await recordEvent(em, 'checklist.item_overdue', {
              id: checklist.id,
              item: item.id,
              employee: checklist.employeeId,
              title: item.title,
              due_date: item.dueDate,
              assignees: item.assignees,
            });
            n++;
          }
          return n;
        });
      if (due.length < BATCH) return done;
    }
  }
}
