/**
 * The floors of bench:http, each answering GET /employees/:id with the same primary-key SELECT as
 * the service, through mysql2 (a pool of 10, as TypeORM's) or better-sqlite3 (a prepared
 * statement), returning the row as JSON. No auth, no envelope, no validation:
 * - `FLOOR=fastify` (default): a bare Fastify server, what the stack itself costs;
 * - `FLOOR=nest`: the same read in one NestJS controller on the Fastify adapter (no guard, pipe,
 *   filter or hook), what the framework the service is built on costs before any code of ours;
 * - `FLOOR=app`: the same read in a @Public() controller mounted in the service's own application
 *   (createApp: its hooks, headers, request ids, envelope, metrics, guards and pipes), at
 *   /app/api/floor/employees/:id: what the service's HTTP layer costs before authentication;
 * - `FLOOR=app-auth`: the same, @Authenticated(): plus the bearer token's lookup and the level check.
 * What the service's own route adds over `app-auth` is its data: the caller's scope, the read through
 * its reader, the entity, the DTO, the ETag.
 * `DATABASE_URL=... PORT=3991 [FLOOR=nest|app|app-auth] node dist/scripts/bench-floor.js`.
 */
import 'reflect-metadata';
import { Controller, Get, Module, NotFoundException, Param } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { createPool } from 'mysql2/promise';
import { createApp } from '../src/app.factory';
import { Authenticated, Public } from '../src/common/auth/access.decorators';
import { DomainException } from '../src/common/errors/domain.exception';
import { IdParamPipe } from '../src/common/validation/id-param.pipe';
import { loadConfig, parseDatabaseUrl } from '../src/config/config';

type ById = (id: number) => Promise<unknown>;

function reader(): ById {
  const db = parseDatabaseUrl(process.env.DATABASE_URL ?? '');
  if (!db) throw new Error('DATABASE_URL is required');
  if (db.type === 'mysql') {
    const pool = createPool({ uri: db.url, connectionLimit: 10, charset: 'utf8mb4' });
    return async (id) => ((await pool.execute('SELECT * FROM employees WHERE id = ?', [id]))[0] as unknown[])[0];
  }
  const statement = new Database(db.path, { readonly: true }).prepare('SELECT * FROM employees WHERE id = ?');
  return (id) => Promise.resolve(statement.get(id));
}

async function fastifyFloor(byId: ById, port: number): Promise<() => Promise<void>> {
  const app = Fastify({ logger: false });
  app.get<{ Params: { id: string } }>('/employees/:id', async (req, reply) => {
    const row = await byId(Number(req.params.id));
    if (!row) return reply.code(404).send({ error: 'not found' });
    return row;
  });
  await app.listen({ host: '127.0.0.1', port });
  return () => app.close();
}

async function nestFloor(byId: ById, port: number): Promise<() => Promise<void>> {
  @Controller('employees')
  class EmployeesController {
    @Get(':id')
    async get(@Param('id') id: string): Promise<unknown> {
      const row = await byId(Number(id));
      if (!row) throw new NotFoundException();
      return row;
    }
  }
  @Module({ controllers: [EmployeesController] })
  class FloorModule {}
  const app = await NestFactory.create<NestFastifyApplication>(FloorModule, new FastifyAdapter(), { logger: false });
  await app.listen(port, '127.0.0.1');
  return () => app.close();
}

async function appFloor(byId: ById, port: number, authenticated: boolean): Promise<() => Promise<void>> {
  const access = authenticated ? Authenticated() : Public();
  @Controller('floor')
  class FloorController {
    @Get('employees/:id')
    @access
    async get(@Param('id', new IdParamPipe()) id: number): Promise<unknown> {
      const row = await byId(id);
      if (!row) throw new DomainException('NOT_FOUND', `Employee ${id} not found`);
      return row;
    }
  }
  @Module({ controllers: [FloorController] })
  class FloorModule {}
  const app = await createApp(loadConfig({ ...process.env, PORT: String(port) }), {
    imports: [FloorModule],
    shutdownHooks: false,
  });
  await app.listen(port, '127.0.0.1');
  return () => app.close();
}

async function main(): Promise<void> {
  const byId = reader();
  const port = Number(process.env.PORT ?? 3991);
  const floor = process.env.FLOOR;
  const close =
    floor === 'nest'
      ? await nestFloor(byId, port)
      : floor === 'app' || floor === 'app-auth'
        ? await appFloor(byId, port, floor === 'app-auth')
        : await fastifyFloor(byId, port);
  process.on('SIGTERM', () => void close().then(() => process.exit(0)));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
