import { RequestMethod } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ACCESS_POLICY, AccessPolicy } from '../../src/common/auth/access.decorators';

export interface DiscoveredRoute {
  /** "GET /employees/:id" (without the global prefix). */
  key: string;
  method: string;
  path: string;
  policy?: AccessPolicy;
}

const join = (...parts: string[]) =>
  `/${parts
    .flatMap((p) => p.split('/'))
    .filter(Boolean)
    .join('/')}`;

/**
 * Routes that answer with an endless stream (Server-Sent Events): an injected request would never
 * end. The suites that call every route leave them out; test/notifications.e2e-spec.ts calls the
 * stream over real HTTP at each level, anonymous included.
 */
export const STREAMING_ROUTES: ReadonlySet<string> = new Set(['GET /notifications/stream']);

/**
 * Every controller route of the application, as Nest registers it, with its declared access
 * policy; the streaming ones only with `{ streaming: true }`.
 */
export function discoverRoutes(
  app: { get: NestFastifyApplication['get'] },
  opts: { streaming?: boolean } = {},
): DiscoveredRoute[] {
  return allRoutes(app).filter((r) => opts.streaming || !STREAMING_ROUTES.has(r.key));
}

function allRoutes(app: { get: NestFastifyApplication['get'] }): DiscoveredRoute[] {
  const discovery = new DiscoveryService(app.get(ModulesContainer));
  const scanner = new MetadataScanner();
  const reflector = new Reflector();
  return discovery.getControllers().flatMap((wrapper) => {
    const instance = wrapper.instance as object;
    const proto = Object.getPrototypeOf(instance) as Record<string, unknown>;
    const base = (Reflect.getMetadata('path', instance.constructor) as string | undefined) ?? '';
    return scanner
      .getAllMethodNames(proto)
      .filter((name) => Reflect.getMetadata('path', proto[name] as object) !== undefined)
      .flatMap((name) => {
        const handler = proto[name] as object;
        const paths = [Reflect.getMetadata('path', handler) as string | string[]].flat();
        const method = RequestMethod[Reflect.getMetadata('method', handler) as number];
        const policy = reflector.getAllAndOverride<AccessPolicy>(ACCESS_POLICY, [handler as () => void, instance.constructor]);
        return paths.map((p) => {
          const path = join(base, p);
          return { key: `${method} ${path}`, method, path, policy };
        });
      });
  });
}
