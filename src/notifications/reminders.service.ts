import { Injectable, Logger, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { assertNotificationKinds } from '../common/outbox/notification-kinds';
import { CompanyClock } from '../common/time/company-clock';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { transaction } from '../common/database/transaction';
import { Reminders } from '../common/outbox/reactions';
import { JobQueue } from '../common/queue/job-queue.service';
import { defineJob } from '../common/queue/queue.constants';
import { Recipients } from '../users/recipients.service';
import { NotificationWriter, OutgoingNotification } from './notification-writer.service';

/** The reminders of the day, hourly: the first run of a day in the company's time zone writes them, the rest find them written. */
export const NOTIFICATION_REMINDERS_JOB = defineJob<Record<string, never>>('schedule', 'notification-reminders');
const REMINDERS_EVERY_MS = 3_600_000;

/**
 * Date reminders (issue 30), written as notifications by a job that runs hourly. What is due is
 * each module's (`<module>.reminders.ts`: employees' birthdays, anniversaries, probation and
 * contract ends; timesheets' missing week); this job asks them for the company's day, resolves
 * their recipients and writes them. Each is keyed by its kind, employee and day: it fires once on
 * its day, whatever the number of runs or workers.
 */
@Injectable()
export class RemindersService implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger('Reminders');

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly reminders: Reminders,
    private readonly recipients: Recipients,
    private readonly clock: CompanyClock,
    private readonly writer: NotificationWriter,
    private readonly jobs: JobQueue,
  ) {}

  onModuleInit(): void {
    this.jobs.register(NOTIFICATION_REMINDERS_JOB, async () => {
      await this.run().catch((err: Error) => this.logger.warn(`reminders failed: ${err.message}`));
    });
    void this.jobs.schedule(NOTIFICATION_REMINDERS_JOB, REMINDERS_EVERY_MS, 60_000);
  }

  /** Every module has declared its reminders by now: one sending an undeclared kind stops the start. */
  onApplicationBootstrap(): void {
    for (const [name, { kinds }] of this.reminders.all()) assertNotificationKinds(kinds, `the reminders of ${name}`);
  }

  /** Writes the reminders of the company's day at `now` (those already written stay single); how many it found. */
  async run(now = this.clock.now()): Promise<number> {
    const today = await this.clock.today(now);
    const resolve = this.recipients.resolver();
    const items: OutgoingNotification[] = [];
    for (const [name, { source, kinds }] of this.reminders.all()) {
      const due = await source(today).catch((err: Error) => {
        this.logger.warn(`reminders of ${name}: ${err.message}`);
        return [];
      });
      for (const r of due) {
        if (!kinds.includes(r.kind)) {
          this.logger.error(`reminders of ${name} sent ${r.kind}, which they did not declare: passed over`);
          continue;
        }
        items.push({
          kind: r.kind,
          userIds: await resolve(r.to),
          title: r.title,
          body: r.body,
          link: r.link,
          sourceKey: r.sourceKey,
        });
      }
    }
    const written = await transaction(this.ds, (em) => this.writer.write(em, items));
    await this.writer.committed(written);
    return items.length;
  }
}
