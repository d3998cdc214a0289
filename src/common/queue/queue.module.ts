import { BullModule, getQueueToken } from '@nestjs/bull';
import { DynamicModule, Global, Module } from '@nestjs/common';
import type { Queue } from 'bull';
import { AppConfig } from '../../config/config';
import { BullRunner } from './bull.runner';
import { InProcessRunner } from './in-process.runner';
import { JobQueue } from './job-queue.service';
import { JOB_RUNNER, QUEUE_NAMES } from './queue.constants';

/** The one place that decides who runs jobs: Bull when REDIS_URL is set, else this process. */
@Global()
@Module({})
export class QueueModule {
  static forRoot(config: AppConfig): DynamicModule {
    if (!config.redisUrl) {
      return {
        module: QueueModule,
        providers: [
          { provide: JOB_RUNNER, useFactory: () => new InProcessRunner(Math.max(8, config.mailConcurrency)) },
          JobQueue,
        ],
        exports: [JobQueue],
      };
    }
    return {
      module: QueueModule,
      imports: [
        BullModule.forRoot({
          url: config.redisUrl,
          prefix: config.queuePrefix,
          // A job whose worker died JOB_MAX_WORKER_DEATHS times is failed, not taken up again (BullRunner ends its record Failed).
          settings: {
            lockDuration: config.queueLockMs,
            stalledInterval: config.queueStalledCheckMs,
            maxStalledCount: config.jobMaxDeaths - 1,
          },
        }),
        BullModule.registerQueue(...QUEUE_NAMES.map((name) => ({ name }))),
      ],
      providers: [
        {
          provide: JOB_RUNNER,
          inject: QUEUE_NAMES.map((name) => getQueueToken(name)),
          useFactory: (...queues: Queue[]) =>
            new BullRunner(queues, config.queueConsumer, { mail: config.mailConcurrency }, config.jobMaxDeaths),
        },
        JobQueue,
      ],
      exports: [JobQueue],
    };
  }
}
