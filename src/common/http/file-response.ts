import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';

/** A conditional or ranged file request's headers: If-None-Match, Range, If-Range. */
export interface FileConditions {
  range?: string;
  ifNoneMatch?: string;
  ifRange?: string;
}

/** A stored file to send (200, or 206 for a range) with its headers, or a 304. */
export type FileResponse =
  { body: Readable; status: 200 | 206; headers: Record<string, string> } | { status: 304; headers: Record<string, string> };

/** The request's conditions on a file. */
export function fileConditions(req: FastifyRequest): FileConditions {
  const h = req.headers;
  return {
    range: h.range,
    ifNoneMatch: h['if-none-match'],
    ifRange: typeof h['if-range'] === 'string' ? h['if-range'] : undefined,
  };
}

/** Sends a file (or a 304) with its headers, from a route with @RawResponse and a passthrough reply. */
export function sendFile(reply: FastifyReply, file: FileResponse): Readable | string {
  void reply.status(file.status).headers(file.headers);
  return 'body' in file ? file.body : '';
}
