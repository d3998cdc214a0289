import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory, Reflector } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AccessGuard } from '../src/common/auth/access.guard';
import { Levels, Public } from '../src/common/auth/access.decorators';
import { discoverRoutes } from './helpers/routes';
import { createTestApp, TestApp } from './helpers/test-app';

@Controller('forgotten')
class ForgottenController {
  @Get()
  oops(): string {
    return 'nobody decided who may call this';
  }
}

@Module({ controllers: [ForgottenController] })
class ForgottenModule {}

/** One handler function under two class-level policies. */
class InheritedBase {
  read(): string {
    return 'read';
  }
}
@Public()
class OpenInherited extends InheritedBase {}
@Levels('Admin')
class AdminInherited extends InheritedBase {}

describe('access policy on every route', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('every route of the application declares @Public() or @Levels(...)', () => {
    const routes = discoverRoutes(t.app);
    expect(routes.length).toBeGreaterThan(5);
    expect(routes.filter((r) => !r.policy).map((r) => r.key)).toEqual([]);
  });

  it('the check names a route that declares nothing, and the guard refuses to serve it', async () => {
    const app = await NestFactory.create<NestFastifyApplication>(ForgottenModule, new FastifyAdapter(), {
      logger: false,
      abortOnError: false,
    });
    await app.init();
    try {
      expect(
        discoverRoutes(app)
          .filter((r) => !r.policy)
          .map((r) => r.key),
      ).toEqual(['GET /forgotten']);
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

  it("the guard keeps a route's policy per controller class: an inherited handler answers each class's own", async () => {
    const guard = new AccessGuard(new Reflector(), { authenticate: () => Promise.resolve(null) });
    const ctx = (controller: object) => ({
      getHandler: () => InheritedBase.prototype.read,
      getClass: () => controller,
      switchToHttp: () => ({ getRequest: () => ({ headers: {} }) }),
    });
    for (let i = 0; i < 2; i++) {
      await expect(guard.canActivate(ctx(OpenInherited) as never)).resolves.toBe(true);
      await expect(guard.canActivate(ctx(AdminInherited) as never)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    }
  });
});
