import { InProcessRunner } from './in-process.runner';
import { JobQueue } from './job-queue.service';
import { defineJob, DEFINED_JOBS } from './queue.constants';

describe('JobQueue', () => {
  it('refuses to start while a defined job has no handler, and starts once it has one (issue 26)', async () => {
    const orphan = defineJob<{ n: number }>('mail', 'orphan-for-test');
    expect(DEFINED_JOBS.has('mail:orphan-for-test')).toBe(true);
    const queue = new JobQueue(new InProcessRunner(), new Set(['mail:orphan-for-test']));
    await expect(queue.onApplicationBootstrap()).rejects.toThrow(
      "jobs defined without a handler: mail:orphan-for-test (register them in their processor's onModuleInit)",
    );
    queue.register(orphan, async () => undefined);
    await expect(queue.onApplicationBootstrap()).resolves.toBeUndefined();
    await queue.beforeApplicationShutdown();
  });
});
