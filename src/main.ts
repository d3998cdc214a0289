import './node-check';
import 'reflect-metadata';
import { tracing } from './tracing';
import cluster, { Worker } from 'node:cluster';
import { createApp, handlersDone } from './app.factory';
import { createRootLogger } from './common/logging/logger';
import { AppConfig, ConfigError, loadConfig } from './config/config';
import { ALL_PROCESSES_LISTENING } from './health/cluster-readiness';
import { checkDatabase, DatabaseSetupError } from './database/reachable';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  // A database that does not exist, or refuses the user: one line, before any process starts.
  if (cluster.isPrimary) await checkDatabase(config.database);
  if (config.apiProcesses > 1 && cluster.isPrimary) return runPrimary(config);
  const app = await createApp(config, { shutdownHooks: false });
  await app.listen(config.port, config.host);
  // SIGTERM/SIGINT: stop listening and let the requests in flight finish (Fastify's close), then
  // close the application (jobs this process runs are drained, connections closed) and exit 0.
  // The listener goes first so a request in flight can still queue its job. A second signal exits at once.
  const stop = (signal: NodeJS.Signals) => {
    process.once(signal, () => process.exit(1));
    void (async () => {
      await app.getHttpAdapter().close();
      // Handlers whose clients went away are not waited for by the listener: they still need the database.
      if (!(await handlersDone(app, 10_000))) process.stderr.write('stopping with route handlers still running after 10 s\n');
      await app.close();
      await tracing?.shutdown();
      process.exit(0);
    })().catch((err: unknown) => {
      process.stderr.write(`did not stop cleanly: ${String((err as Error)?.stack ?? err)}\n`);
      process.exit(1);
    });
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/**
 * API_PROCESSES > 1: this process forks that many HTTP processes sharing the port (node:cluster
 * hands connections out in turn). The first starts alone and applies pending migrations; the
 * others start after it listens, with MIGRATIONS_RUN=false. One that dies is replaced after a
 * second. SIGTERM/SIGINT go to all of them (each finishes its requests and drains its jobs); this
 * process exits 0 when they all stopped cleanly.
 */
async function runPrimary(config: AppConfig): Promise<void> {
  const logger = createRootLogger(config.logLevel);
  let stopping = false;
  let started = false;
  let unclean = 0;
  // The signals are taken before the first fork: a SIGTERM while the processes start (the first
  // one listening, the others still loading) stops them all too, and this process exits as they
  // do, not by the signal's default action (exit 143).
  const stop = (signal: NodeJS.Signals) => {
    stopping = true;
    logger.info({ signal }, 'stopping the HTTP processes');
    const workers = Object.values(cluster.workers ?? {});
    if (!workers.length) process.exit(0);
    for (const worker of workers) worker?.process.kill(signal);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (code !== 0 && signal !== 'SIGTERM' && signal !== 'SIGINT') unclean++;
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(unclean ? 1 : 0);
      return;
    }
    if (!started) return; // the fork's own 'exit' listener fails the start
    logger.error({ pid: worker.process.pid, code, signal }, 'an HTTP process died; starting another');
    setTimeout(() => void fork({ MIGRATIONS_RUN: 'false' }).catch((err: Error) => logger.error(err.message)), 1000);
  });
  const fork = (env: Record<string, string>) =>
    new Promise<Worker | null>((resolve, reject) => {
      if (stopping) return resolve(null);
      const worker = cluster.fork(env);
      const early = (code: number | null) =>
        stopping ? resolve(null) : reject(new Error(`an HTTP process exited (${code}) before it listened`));
      worker.once('exit', early);
      worker.once('listening', () => {
        worker.off('exit', early);
        if (started) tellListening(worker); // a replacement: the others listen already
        resolve(worker);
      });
    });
  await fork({});
  await Promise.all(Array.from({ length: config.apiProcesses - 1 }, () => fork({ MIGRATIONS_RUN: 'false' })));
  if (stopping) return;
  started = true;
  logger.info({ processes: config.apiProcesses, port: config.port }, 'HTTP processes listening');
  // Their readiness (/health/ready) answers 200 from now on.
  for (const worker of Object.values(cluster.workers ?? {})) if (worker) tellListening(worker);
}

/** Tells an HTTP process that all listen (its readiness); one that has just died is past telling (the callback takes the error). */
function tellListening(worker: Worker): void {
  if (worker.isConnected()) worker.send(ALL_PROCESSES_LISTENING, undefined, () => undefined);
}

main().catch((err: unknown) => {
  const oneLine = err instanceof ConfigError || err instanceof DatabaseSetupError;
  process.stderr.write(`${oneLine ? err.message : String((err as Error)?.stack ?? err)}\n`);
  process.exit(1);
});
