import { DomainException } from '../common/errors/domain.exception';

export interface HashGateLimits {
  /** Hashes computed at once in this process (each one of libuv's threads, ~32 MiB). */
  concurrency: number;
  /** Hashes waiting for a turn in this process; past it, 503 SIGN_IN_BUSY. */
  waiting: number;
  /** Hashes in flight or waiting for one client (an address, an IPv6 /64); past it, 429. */
  perClient: number;
  /** Longest wait for a turn before 503 SIGN_IN_BUSY. */
  maxWaitMs: number;
}

/**
 * 2 of libuv's 4 threads, so files, zlib and DNS keep two; 32 waiting (about 3.5 s of hashing at
 * 220 ms a hash); 2 per client; 5 s at most in the queue (docs/api/authentication.md, "Sign-in floods").
 */
export const DEFAULT_HASH_GATE: HashGateLimits = { concurrency: 2, waiting: 32, perClient: 2, maxWaitMs: 5000 };

/** The service's own hashes (a new user's password, an import): in turn with the clients, no per-client share. */
const SERVICE = '\u0000service';

interface Waiter {
  start: () => void;
  timer: NodeJS.Timeout;
}

/**
 * Bounds the password hashes in flight in this process, in JavaScript, before one reaches libuv's
 * thread pool: an unauthenticated sign-in flood (every attempt one scrypt, unknown names included)
 * would otherwise hold every thread, and document downloads, exports and every other sign-in with
 * them. Turns go round the clients that wait (one each in turn), so a legitimate sign-in from
 * another address waits behind one hash per flooding client, not behind the flood.
 */
export class HashGate {
  private running = 0;
  private waitingCount = 0;
  private readonly pending = new Map<string, number>();
  /** The clients with waiters, in turn order; each with its queue. */
  private readonly queues = new Map<string, Waiter[]>();

  constructor(private readonly limits: HashGateLimits = DEFAULT_HASH_GATE) {}

  /** What is in flight and waiting now (for metrics and tests). */
  get state(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waitingCount };
  }

  /** Runs `work` (one hash) in its turn; `client` null is the service's own work, without a per-client share. */
  async run<T>(clientOrNull: string | null, work: () => Promise<T>): Promise<T> {
    const client = clientOrNull ?? SERVICE;
    const mine = this.pending.get(client) ?? 0;
    if (clientOrNull !== null && mine >= this.limits.perClient) {
      throw new DomainException('RATE_LIMITED', 'Too many sign-in attempts at once from your address; retry in 1 s', undefined, {
        'Retry-After': '1',
      });
    }
    if (this.running >= this.limits.concurrency) {
      if (this.waitingCount >= this.limits.waiting) throw this.busy();
      this.pending.set(client, mine + 1);
      try {
        await this.turn(client);
      } catch (err) {
        this.release(client, false);
        throw err;
      }
    } else {
      this.pending.set(client, mine + 1);
      this.running += 1;
    }
    try {
      return await work();
    } finally {
      this.release(client, true);
    }
  }

  private turn(client: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        start: resolve,
        timer: setTimeout(() => {
          const queue = this.queues.get(client);
          const at = queue?.indexOf(waiter) ?? -1;
          if (queue && at >= 0) {
            queue.splice(at, 1);
            if (!queue.length) this.queues.delete(client);
            this.waitingCount -= 1;
          }
          reject(this.busy());
        }, this.limits.maxWaitMs),
      };
      const queue = this.queues.get(client);
      if (queue) queue.push(waiter);
      else this.queues.set(client, [waiter]);
      this.waitingCount += 1;
    });
  }

  private release(client: string, ran: boolean): void {
    const left = (this.pending.get(client) ?? 1) - 1;
    if (left > 0) this.pending.set(client, left);
    else this.pending.delete(client);
    if (!ran) return;
    this.running -= 1;
    // The next turn goes to the client that has waited longest for its first turn: it leaves the
    // front of the order and, with more waiters, goes to its back.
    const next = this.queues.entries().next();
    if (next.done) return;
    const [nextClient, queue] = next.value;
    const waiter = queue.shift()!;
    this.queues.delete(nextClient);
    if (queue.length) this.queues.set(nextClient, queue);
    this.waitingCount -= 1;
    clearTimeout(waiter.timer);
    this.running += 1;
    waiter.start();
  }

  private busy(): DomainException {
    const seconds = Math.max(1, Math.ceil((this.waitingCount * 0.25) / Math.max(1, this.limits.concurrency)));
    return new DomainException('SIGN_IN_BUSY', `Too many sign-ins at once; retry in ${seconds} s`, undefined, {
      'Retry-After': String(seconds),
    });
  }
}
