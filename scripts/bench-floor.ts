/**
 * The floor of bench:http: a bare Fastify server answering GET /employees/:id with the same
 * primary-key SELECT as the service, through mysql2 (a pool of 10, as TypeORM's) or better-sqlite3
 * (a prepared statement), returning the row as JSON. No auth, no envelope, no validation: what
 * the stack itself costs. `DATABASE_URL=... PORT=3991 node dist/scripts/bench-floor.js`.
 */
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { createPool } from 'mysql2/promise';
import { parseDatabaseUrl } from '../src/config/config';

async function main(): Promise<void> {
  const db = parseDatabaseUrl(process.env.DATABASE_URL ?? '');
  if (!db) throw new Error('DATABASE_URL is required');
  let byId: (id: number) => Promise<unknown>;
  if (db.type === 'mysql') {
    const pool = createPool({ uri: db.url, connectionLimit: 10, charset: 'utf8mb4' });
    byId = async (id) => ((await pool.execute('SELECT * FROM employees WHERE id = ?', [id]))[0] as unknown[])[0];
  } else {
    const statement = new Database(db.path, { readonly: true }).prepare('SELECT * FROM employees WHERE id = ?');
    byId = (id) => Promise.resolve(statement.get(id));
  }
  const app = Fastify({ logger: false });
  app.get<{ Params: { id: string } }>('/employees/:id', async (req, reply) => {
    const row = await byId(Number(req.params.id));
    if (!row) return reply.code(404).send({ error: 'not found' });
    return row;
  });
  await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 3991) });
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
