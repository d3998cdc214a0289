import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';

/** The bounds on a client's sending (config: HTTP_*_TIMEOUT, HTTP_UPLOAD_MIN_RATE). */
export interface SlowClientLimits {
  /** A request body that is JSON or a form must have arrived within this (ms). */
  requestTimeoutMs: number;
  /** Any other body (a file) must arrive at this many bytes a second at least, over each window. */
  uploadMinBytesPerSec: number;
  /** The window over which an upload's rate is measured (ms); its first window starts with the body. */
  uploadWindowMs: number;
}

interface Receiving {
  socket: Socket;
  since: number;
  /** Ordinary bodies: their deadline; uploads: null (the rate decides). */
  deadline: number | null;
  windowStart: number;
  windowBytes: number;
  done: () => boolean;
  /** Whether a response went out already (a refusal before the body was read): then no 408 is written. */
  answered: () => boolean;
}

/** Bodies that are data, not a file: bounded by a deadline. Everything else is an upload, bounded by its rate. */
const ORDINARY = /^(application\/(json|x-www-form-urlencoded|[\w.+-]*\+json))\b/i;

const TIMEOUT_BODY = JSON.stringify({
  status: 'ERROR',
  error: {
    code: 'REQUEST_TIMEOUT',
    message: 'The request body did not arrive in time (or arrived slower than the service accepts); the connection is closed',
  },
});
const TIMEOUT_RESPONSE =
  'HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n' +
  `Content-Length: ${Buffer.byteLength(TIMEOUT_BODY)}\r\n\r\n${TIMEOUT_BODY}`;

/**
 * Closes the connections of clients that send a request body too slowly (a slowloris: a declared
 * Content-Length, then a byte every 20 s), which otherwise hold a socket and a file descriptor
 * each, forever, until the process has none left. Node's own `requestTimeout` is one deadline for
 * every request, which would cut a large upload on a slow line; here a JSON or form body has a
 * deadline and a file has a minimum rate. Headers are bounded by the server's `headersTimeout`, an
 * idle connection by its `connectionTimeout`. One timer checks every receiving request each second.
 */
export class SlowClients {
  private readonly receiving = new Set<Receiving>();
  private timer: NodeJS.Timeout | null = null;
  /** Connections closed so far (for tests and the log). */
  closed = 0;

  constructor(private readonly limits: SlowClientLimits) {}

  register(fastify: FastifyInstance): void {
    fastify.addHook('onRequest', (request, reply, done) => {
      this.track(request, () => reply.raw.headersSent);
      done();
    });
    fastify.addHook('onClose', (_instance, done) => {
      this.stop();
      done();
    });
  }

  private track(request: FastifyRequest, answered: () => boolean): void {
    const raw = request.raw;
    const length = raw.headers['content-length'];
    const hasBody = (length !== undefined && length !== '0') || raw.headers['transfer-encoding'] !== undefined;
    if (!hasBody || raw.complete) return;
    const socket = raw.socket;
    const now = Date.now();
    const ordinary = ORDINARY.test(raw.headers['content-type'] ?? '');
    const entry: Receiving = {
      socket,
      since: now,
      deadline: ordinary ? now + this.limits.requestTimeoutMs : null,
      windowStart: now,
      windowBytes: socket.bytesRead,
      done: () => raw.complete || socket.destroyed,
      answered,
    };
    this.receiving.add(entry);
    const forget = () => this.receiving.delete(entry);
    raw.once('end', forget);
    raw.once('close', forget);
    if (!this.timer) {
      this.timer = setInterval(() => this.sweep(), 1000);
      this.timer.unref();
    }
  }

  private sweep(): void {
    const now = Date.now();
    for (const entry of this.receiving) {
      if (entry.done()) {
        this.receiving.delete(entry);
        continue;
      }
      if (entry.deadline !== null) {
        if (now >= entry.deadline) this.close(entry);
        continue;
      }
      const elapsed = now - entry.windowStart;
      if (elapsed < this.limits.uploadWindowMs) continue;
      const bytes = entry.socket.bytesRead - entry.windowBytes;
      if (bytes < (this.limits.uploadMinBytesPerSec * elapsed) / 1000) this.close(entry);
      else Object.assign(entry, { windowStart: now, windowBytes: entry.socket.bytesRead });
    }
    if (this.receiving.size === 0) this.stop();
  }

  /** A 408 in the error envelope, then the connection goes (the body's rest is never read). */
  private close(entry: Receiving): void {
    this.receiving.delete(entry);
    this.closed++;
    const { socket } = entry;
    if (socket.destroyed) return;
    if (entry.answered()) return void socket.destroy();
    socket.end(TIMEOUT_RESPONSE);
    setTimeout(() => socket.destroy(), 1000).unref();
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
