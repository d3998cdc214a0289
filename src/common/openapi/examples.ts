import type { OpenAPIObject } from '@nestjs/swagger';
import { ERROR_STATUS, ErrorCode } from '../errors/error-codes';

/**
 * One example error per status, as the service answers it (Hardening IV item 18: every status showed
 * `VALIDATION_FAILED "work_email must be an email"`, the error schema's own example). Each code is
 * one the status carries (ERROR_STATUS), which test/hardening-4.e2e-spec.ts checks.
 */
export const ERROR_EXAMPLES: Readonly<Record<string, { code: ErrorCode; message: string; details?: object[] }>> = {
  '400': {
    code: 'VALIDATION_FAILED',
    message: 'work_email must be an email',
    details: [{ field: 'work_email', message: 'must be an email' }],
  },
  '401': { code: 'UNAUTHORIZED', message: 'Missing, invalid or expired access token' },
  '403': { code: 'FORBIDDEN', message: 'Only an Admin may do this' },
  '404': { code: 'NOT_FOUND', message: 'Employee 42 not found' },
  '409': { code: 'INVALID_STATE', message: 'The payroll is Completed: process is not allowed in that state' },
  '410': { code: 'GONE', message: 'This route is gone: its description names the one that replaced it' },
  '412': { code: 'PRECONDITION_FAILED', message: 'The record changed since it was read (If-Match): read it again' },
  '413': { code: 'PAYLOAD_TOO_LARGE', message: 'Request body too large' },
  '415': { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Unsupported Content-Type: send application/json' },
  '416': { code: 'RANGE_NOT_SATISFIABLE', message: 'The range is outside the file' },
  '429': { code: 'RATE_LIMITED', message: 'Too many sign-in attempts; retry in 30 s' },
  '500': { code: 'INTERNAL_ERROR', message: 'Internal server error' },
  '501': { code: 'NOT_IMPLEMENTED', message: 'Not implemented' },
  '503': {
    code: 'API_DISABLED',
    message: 'The REST API is disabled: an Admin sets "Enable Rest Api" to Yes (./bin/hr settings:set "Enable Rest Api" Yes)',
  },
};

const ENVELOPE_REF = '#/components/schemas/ErrorEnvelopeDto';

type ResponseLike = { content?: Record<string, { schema?: { $ref?: string }; example?: unknown }> };

/**
 * Gives every error response in the envelope the example of its status: a copy of its content, as
 * responses share content objects. A status without an example of its own keeps none.
 */
export function errorExamples(doc: OpenAPIObject): void {
  for (const methods of Object.values(doc.paths))
    for (const operation of Object.values(methods) as Array<{ responses?: Record<string, ResponseLike> }>) {
      if (typeof operation !== 'object' || !operation?.responses) continue;
      for (const [status, response] of Object.entries(operation.responses)) {
        const json = response.content?.['application/json'];
        const example = ERROR_EXAMPLES[status];
        if (!example || json?.schema?.$ref !== ENVELOPE_REF || ERROR_STATUS[example.code] !== Number(status)) continue;
        response.content = { ...response.content, 'application/json': { ...json, example: { status: 'ERROR', error: example } } };
      }
    }
}

/** A sample value of a filter's schema, for the filters parameter's example. */
function sampleOf(schema: { type?: string; format?: string; enum?: unknown[]; oneOf?: Array<{ type?: string }> }): unknown {
  if (schema.enum?.length) return schema.enum.find((v) => v !== null);
  if (schema.oneOf?.some((s) => s.type === 'integer')) return '2,3';
  if (schema.format === 'date') return '2026-01-31';
  if (schema.type === 'boolean') return true;
  if (schema.type === 'integer') return 1;
  return 'text';
}

/** The filters parameter of a list shows one filter set (an empty object showed in 29 lists). */
export function filterExamples(doc: OpenAPIObject): void {
  for (const methods of Object.values(doc.paths))
    for (const operation of Object.values(methods) as Array<{ parameters?: object[] }>) {
      if (typeof operation !== 'object' || !operation?.parameters) continue;
      for (const parameter of operation.parameters) {
        const p = parameter as {
          name?: string;
          in?: string;
          example?: unknown;
          schema?: { properties?: Record<string, object> };
        };
        const first = Object.entries(p.schema?.properties ?? {})[0];
        if (p.in === 'query' && p.name === 'filters' && first && p.example === undefined)
          p.example = { [first[0]]: sampleOf(first[1]) };
      }
    }
}
