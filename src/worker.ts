import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { createRootLogger, PinoNestLogger } from './common/logging/logger';
import { ConfigError, loadConfig } from './config/config';

/**
 * The queue worker: the same modules as the API, no HTTP listener. It consumes the `mail` and
 * `payroll` queues from Redis and drains running jobs on SIGTERM/SIGINT.
 */
async function main(): Promise<void> {
  const config = { ...loadConfig(process.env), queueConsumer: true };
  if (!config.redisUrl) {
    throw new ConfigError(['REDIS_URL: the worker needs Redis; without it the API process runs jobs itself']);
  }
  const logger = createRootLogger(config.logLevel);
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config), { logger: new PinoNestLogger(logger) });
  app.enableShutdownHooks();
  await app.init();
  logger.info({ queues: ['mail', 'payroll'], prefix: config.queuePrefix }, 'worker consuming jobs');
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof ConfigError ? err.message : String((err as Error)?.stack ?? err)}\n`);
  process.exit(1);
});
