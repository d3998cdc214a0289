import { createBullBoard } from '@bull-board/api';
import { BullAdapter } from '@bull-board/api/bullAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { Queue } from 'bull';
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';

export const QUEUE_DASHBOARD_PATH = '/queues';

export interface QueueDashboard {
  /** The port it listens on (127.0.0.1). */
  port: number;
  close(): Promise<void>;
}

/**
 * Bull Board over the given queues (jobs, progress, failures, retry of failed jobs), served by a
 * Fastify server of its own on 127.0.0.1 only: it has no sign-in, so it is reached from the
 * worker's host (or through an SSH tunnel), never published.
 */
export async function startQueueDashboard(queues: Queue[], port: number): Promise<QueueDashboard> {
  const server = Fastify({ logger: false });
  const adapter = new FastifyAdapter();
  createBullBoard({
    queues: queues.map((q) => new BullAdapter(q)),
    serverAdapter: adapter,
    options: { uiConfig: { boardTitle: 'HR queues' } },
  });
  adapter.setBasePath(QUEUE_DASHBOARD_PATH);
  await server.register(adapter.registerPlugin(), { prefix: QUEUE_DASHBOARD_PATH });
  await server.listen({ host: '127.0.0.1', port });
  return { port: (server.server.address() as AddressInfo).port, close: () => server.close() };
}
