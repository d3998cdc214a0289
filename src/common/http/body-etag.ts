import type { FastifyInstance, FastifyReply } from 'fastify';
import { hash } from 'node:crypto';

const ETAG_FROM_BODY = Symbol('etagFromBody');

/** The strong ETag of a body as sent: its SHA-1, base64url, quoted. */
export function bodyEtag(body: string): string {
  return `"${hash('sha1', body, 'base64url')}"`;
}

/**
 * Asks for the response's ETag to be the digest of its body as serialized for sending: the body is
 * serialized once (the ETag had serialized the view a second time, and made a Hash object: 8 % of
 * the CPU of GET /employees/{id}). Only a 200 gets it.
 */
export function etagFromBody(reply: FastifyReply): void {
  (reply as unknown as Record<symbol, boolean>)[ETAG_FROM_BODY] = true;
}

export function registerBodyEtags(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if ((reply as unknown as Record<symbol, boolean>)[ETAG_FROM_BODY] && reply.statusCode === 200 && typeof payload === 'string')
      void reply.header('ETag', bodyEtag(payload));
    done(null, payload);
  });
}
