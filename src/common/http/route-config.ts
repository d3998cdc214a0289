import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import type { FastifyRequest } from 'fastify';

/**
 * Adds `part` to the route's Fastify config (`req.routeOptions.config`), keeping what other
 * decorators put there (Nest's RouteConfig replaces it: a raw response and a body type on one route
 * would lose one).
 */
export function RouteConfigPart(part: Record<string, unknown>): MethodDecorator {
  return (_target, _key, descriptor) => {
    const method = descriptor.value as object;
    const before = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, method) as Record<string, unknown> | undefined) ?? {};
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...before, ...part }, method);
    return descriptor;
  };
}

const BODY_TYPES = 'bodyTypes';
const BODY_REFUSAL = 'bodyRefusal';

/**
 * The media types a route takes besides JSON, declared beside its handler (issue 64): the document
 * uploads' multipart/form-data, the imports' CSV and XLSX, the OAuth token endpoint's form. The
 * service's content-type parsers hand such a body over only to a route that declares its type.
 */
export const BodyTypes = (types: string[], refusal?: string) => RouteConfigPart({ [BODY_TYPES]: types, [BODY_REFUSAL]: refusal });

/** The media types the request's route declared (none: JSON only), and what it says to a body of another type. */
export function bodyTypesOf(req: FastifyRequest): { types: readonly string[]; refusal: string | undefined } {
  const config = req.routeOptions.config as unknown as Record<string, unknown> | undefined;
  return { types: (config?.[BODY_TYPES] as string[] | undefined) ?? [], refusal: config?.[BODY_REFUSAL] as string | undefined };
}
