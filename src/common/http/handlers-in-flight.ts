import { FastifyInstance, FastifyRequest } from 'fastify';

const COUNTED = Symbol('handler in flight');
type Counted = FastifyRequest & { [COUNTED]?: boolean };

/**
 * Counts the route handlers running, from the last preHandler hook to the reply's onSend, so that
 * a stopping process closes the database only after them. Fastify's close() waits for requests
 * whose connection is still open, but not for a handler whose client went away: it went on after
 * the pool was closed and logged "Pool is closed." as an unhandled error (seen at the end of every
 * bench:http run, whose load generator drops its connections when it stops).
 */
export class HandlersInFlight {
  private running = 0;
  private waiters: Array<() => void> = [];

  register(fastify: FastifyInstance): void {
    fastify.addHook('preHandler', (request: Counted, _reply, done) => {
      request[COUNTED] = true;
      this.running += 1;
      done();
    });
    fastify.addHook('onSend', (request: Counted, _reply, payload, done) => {
      if (request[COUNTED]) {
        request[COUNTED] = false;
        this.running -= 1;
        if (this.running === 0) for (const wake of this.waiters.splice(0)) wake();
      }
      done(null, payload);
    });
  }

  get count(): number {
    return this.running;
  }

  /** Resolves true once no handler runs, false if some still do after `timeoutMs`. */
  idle(timeoutMs: number): Promise<boolean> {
    if (this.running === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== wake);
        resolve(false);
      }, timeoutMs);
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.waiters.push(wake);
    });
  }
}
