import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory, Reflector } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { AccessGuard } from '../src/common/auth/access.guard';
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
});
