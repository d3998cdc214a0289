import { Body, Controller, HttpCode, Module, Post } from '@nestjs/common';
import { declareApiTag } from '../src/common/openapi/api-tags';
import { ApiProperty } from '@nestjs/swagger';
import { getRepositoryToken } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Authenticated } from '../src/common/auth/access.decorators';
import { ApiErrors, ApiOkEnvelope } from '../src/common/envelope/api-envelope.decorators';
import { DomainException } from '../src/common/errors/domain.exception';
import { IdempotencyKey } from '../src/common/idempotency/idempotency-key.entity';
import { Idempotent } from '../src/common/idempotency/idempotent.decorator';
import { bearer, createTestApp, createUser, TestApp, TestUser } from './helpers/test-app';

/** A fixture route that counts how often its work really runs. */
let runs = 0;

/** What the fixture answers, documented like every route (responses are checked against the document). */
// A module's tag is declared beside it (the controller is tagged Fixture from its name).
declareApiTag('Fixture', 'Idempotency-Key on a route of a test module', 999);

class FixtureResultDto {
  @ApiProperty() run: number;
  @ApiProperty({ type: Object, additionalProperties: true }) got: unknown;
}

@Controller('idem-fixture')
class FixtureController {
  @Post()
  @HttpCode(200)
  @Authenticated()
  @Idempotent()
  @ApiOkEnvelope(FixtureResultDto)
  @ApiErrors(400, 409)
  async create(@Body() body: Record<string, unknown>): Promise<{ run: number; got: unknown }> {
    runs += 1;
    if (body.fail) throw new DomainException('CONFLICT', 'fixture refuses');
    if (body.slow) await new Promise((r) => setTimeout(r, 150));
    return { run: runs, got: body };
  }
}

@Module({ controllers: [FixtureController] })
class FixtureModule {}

describe('Idempotency-Key', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await createTestApp({}, { imports: [FixtureModule] });
    alice = await createUser(t.app, 'Employee');
    bob = await createUser(t.app, 'Employee');
  });
  afterAll(() => t.close());

  const post = (user: TestUser, payload: Record<string, unknown>, key?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/app/api/idem-fixture',
      headers: { ...bearer(user.token), ...(key ? { 'idempotency-key': key } : {}) },
      payload,
    });

  it('without the header, every request does the work', async () => {
    const before = runs;
    await post(alice, { a: 1 });
    await post(alice, { a: 1 });
    expect(runs - before).toBe(2);
  });

  it('the same key and body return the first response and do the work once', async () => {
    const before = runs;
    const first = await post(alice, { a: 1, b: [1, 2] }, 'key-1');
    const again = await post(alice, { b: [1, 2], a: 1 }, 'key-1'); // same body, other key order
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(first.json()).toEqual({ status: 'SUCCESS', data: { run: before + 1, got: { a: 1, b: [1, 2] } } });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(runs - before).toBe(1);
  });

  it('the same key with another body is a 409 IDEMPOTENCY_KEY_REUSED, and does nothing', async () => {
    await post(alice, { a: 1 }, 'key-2');
    const before = runs;
    const other = await post(alice, { a: 2 }, 'key-2');
    expect(other.statusCode).toBe(409);
    expect(other.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(runs).toBe(before);
  });

  it('keys belong to their user', async () => {
    const a = await post(alice, { x: 1 }, 'shared-key');
    const b = await post(bob, { x: 1 }, 'shared-key');
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.json().data.run).toBe(a.json().data.run + 1);
  });

  it('a failed request is not stored, so the same key can be retried', async () => {
    const failed = await post(alice, { fail: true }, 'key-3');
    expect(failed.statusCode).toBe(409);
    expect(failed.json().error.code).toBe('CONFLICT');
    const before = runs;
    const retry = await post(alice, { fail: true }, 'key-3');
    expect(retry.statusCode).toBe(409);
    expect(runs).toBe(before + 1);
  });

  it('a second request while the first is running gets 409 CONFLICT', async () => {
    const [first, second] = await Promise.all([post(alice, { slow: true }, 'key-4'), post(alice, { slow: true }, 'key-4')]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
  });

  it('a key expires after 24 hours', async () => {
    const first = await post(alice, { e: 1 }, 'key-5');
    await t.app
      .get<Repository<IdempotencyKey>>(getRepositoryToken(IdempotencyKey))
      .update({ idemKey: 'key-5' }, { expiresAt: new Date(Date.now() - 1000) });
    const later = await post(alice, { e: 1 }, 'key-5');
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(later.json().data.run).toBe(first.json().data.run + 1);
  });

  it('rejects a malformed key with 400', async () => {
    const res = await post(alice, {}, 'x'.repeat(201));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details[0].field).toBe('Idempotency-Key');
  });
});
