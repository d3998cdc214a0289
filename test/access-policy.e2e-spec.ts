import { Controller, Get, Module } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, ModulesContainer, NestFactory, Reflector } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { ACCESS_POLICY, AccessPolicy } from '../src/common/auth/access.decorators';
import { AccessGuard } from '../src/common/auth/access.guard';
import { createTestApp, TestApp } from './helpers/test-app';

/** Every controller handler of the application, with the access policy it declares (or undefined). */
function routePolicies(app: { get: NestFastifyApplication['get'] }): Array<{ route: string; policy?: AccessPolicy }> {
  const discovery = new DiscoveryService(app.get(ModulesContainer));
  const scanner = new MetadataScanner();
  const reflector = new Reflector();
  return discovery.getControllers().flatMap((wrapper) => {
    const instance = wrapper.instance as object;
    const proto = Object.getPrototypeOf(instance) as Record<string, unknown>;
    return scanner
      .getAllMethodNames(proto)
      .filter((name) => Reflect.getMetadata('path', proto[name] as object) !== undefined)
      .map((name) => ({
        route: `${wrapper.name}.${name}`,
        policy: reflector.getAllAndOverride<AccessPolicy>(ACCESS_POLICY, [proto[name] as () => void, instance.constructor]),
      }));
  });
}

@Controller('forgotten')
class ForgottenController {
  @Get()
  oops(): string {
    return 'nobody decided who may call this';
  }
}

@Module({ controllers: [ForgottenController] })
class ForgottenModule {}

describe('access policy on every route', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('every route of the application declares @Public() or @Levels(...)', () => {
    const routes = routePolicies(t.app);
    expect(routes.length).toBeGreaterThan(5);
    expect(routes.filter((r) => !r.policy).map((r) => r.route)).toEqual([]);
  });

  it('the check names a route that declares nothing, and the guard refuses to serve it', async () => {
    const app = await NestFactory.create<NestFastifyApplication>(ForgottenModule, new FastifyAdapter(), {
      logger: false,
      abortOnError: false,
    });
    await app.init();
    try {
      expect(
        routePolicies(app)
          .filter((r) => !r.policy)
          .map((r) => r.route),
      ).toEqual(['ForgottenController.oops']);
      const guard = new AccessGuard(new Reflector(), {} as never);
      const ctx = {
        getHandler: () => ForgottenController.prototype.oops,
        getClass: () => ForgottenController,
        switchToHttp: () => ({ getRequest: () => ({ headers: {} }) }),
      };
      await expect(guard.canActivate(ctx as never)).rejects.toThrow('ForgottenController.oops declares no access policy');
    } finally {
      await app.close();
    }
  });
});
