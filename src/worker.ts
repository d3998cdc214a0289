import './node-check';
import 'reflect-metadata';
import { tracing } from './tracing';
import { getQueueToken } from '@nestjs/bull';
import { NestFactory } from '@nestjs/core';
import type { Queue } from 'bull';
import { AppModule } from './app.module';
import { QUEUE_DASHBOARD_PATH, startQueueDashboard } from './common/queue/queue-dashboard';
import { QUEUE_NAMES } from './common/queue/queue.constants';
import { createRootLogger, PinoNestLogger } from './common/logging/logger';
import { Metrics } from './common/metrics/metrics';
import { startMetricsListener } from './common/metrics/metrics-listener';
import { ConfigError, loadConfig } from './config/config';
import { checkDatabase, DatabaseSetupError } from './database/reachable';

/**
 * The queue worker: the same modules as the API, no HTTP listener. It consumes every queue of
 * QUEUE_NAMES from Redis (mail, payroll, webhooks, imports, documents, schedule; moving new
 * webhook events from the outbox to the webhooks queue) and drains running jobs on SIGTERM/SIGINT. It serves its metrics on WORKER_METRICS_PORT
 * (loopback by default) and, with QUEUE_DASHBOARD_PORT, the queue dashboard on 127.0.0.1.
 */
async function main(): Promise<void> {
  const config = { ...loadConfig(process.env), queueConsumer: true };
  if (!config.redisUrl) {
    throw new ConfigError(['REDIS_URL: the worker needs Redis; without it the API process runs jobs itself']);
  }
  await checkDatabase(config.database);
  const logger = createRootLogger(config.logLevel);
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config), { logger: new PinoNestLogger(logger) });
  let dashboard: Awaited<ReturnType<typeof startQueueDashboard>> | null = null;
  let metrics: Awaited<ReturnType<typeof startMetricsListener>> = null;
  // SIGTERM/SIGINT: stop taking jobs, let the running ones finish (Bull's close waits for them),
  // then exit 0. A second signal exits at once. The handlers are in place before the queues are
  // consumed: a signal during the start-up steps below waits for them, then stops as any other
  // (it killed the process outright when it came between "worker consuming jobs" and the
  // listeners' start, exit code null, a job in hand left to the stalled-job check).
  let started: Promise<void> = Promise.resolve();
  const stop = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'worker stopping: finishing running jobs');
    process.once(signal, () => process.exit(1));
    void (async () => {
      await started.catch(() => undefined);
      await dashboard?.close();
      await metrics?.close();
      await app.close();
      await tracing?.shutdown();
      logger.info('worker stopped');
      process.exit(0);
    })().catch((err: unknown) => {
      logger.error({ err }, 'worker did not stop cleanly');
      process.exit(1);
    });
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);

  started = (async () => {
    await app.init();
    logger.info({ queues: QUEUE_NAMES, prefix: config.queuePrefix }, 'worker consuming jobs');
    dashboard =
      config.queueDashboardPort === null
        ? null
        : await startQueueDashboard(
            QUEUE_NAMES.map((name) => app.get<Queue>(getQueueToken(name))),
            config.queueDashboardPort,
          );
    if (dashboard) logger.info({ url: `http://127.0.0.1:${dashboard.port}${QUEUE_DASHBOARD_PATH}` }, 'queue dashboard');
    metrics = await startMetricsListener(app.get(Metrics), config.metrics);
    if (metrics)
      logger[metrics.movedFromDefault ? 'warn' : 'info'](
        { url: `http://${config.metrics.workerHost}:${metrics.port}/metrics` },
        metrics.movedFromDefault
          ? `worker metrics: port ${config.metrics.workerPort} is taken (another worker?), set WORKER_METRICS_PORT per worker`
          : 'worker metrics',
      );
  })();
  await started;
}

main().catch((err: unknown) => {
  const oneLine = err instanceof ConfigError || err instanceof DatabaseSetupError;
  process.stderr.write(`${oneLine ? err.message : String((err as Error)?.stack ?? err)}\n`);
  process.exit(1);
});
