import { BadRequestException, NotFoundException as NestNotFound, UnauthorizedException } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { DomainException, NotFoundException, ValidationException } from './domain.exception';
import { toErrorResponse } from './to-error-response';

describe('toErrorResponse', () => {
  it('maps domain exceptions by code, with details and extra headers', () => {
    const res = toErrorResponse(new DomainException('RATE_LIMITED', 'slow down', undefined, { 'Retry-After': '7' }));
    expect(res).toEqual({
      status: 429,
      body: { status: 'ERROR', error: { code: 'RATE_LIMITED', message: 'slow down' } },
      headers: { 'Retry-After': '7' },
      unexpected: false,
    });
    expect(toErrorResponse(new NotFoundException('Employee')).body.error).toEqual({
      code: 'NOT_FOUND',
      message: 'Employee not found',
    });
    expect(toErrorResponse(ValidationException.field('work_email', 'must be an email')).body.error).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'work_email must be an email',
      details: [{ field: 'work_email', message: 'must be an email' }],
    });
  });

  it('maps framework exceptions by status and adds the bearer challenge to 401', () => {
    expect(toErrorResponse(new NestNotFound('Cannot GET /x')).body.error.code).toBe('NOT_FOUND');
    expect(toErrorResponse(new BadRequestException()).status).toBe(400);
    const unauthorized = toErrorResponse(new UnauthorizedException());
    expect(unauthorized.headers['WWW-Authenticate']).toMatch(/^Bearer/);
  });

  it('maps Fastify body errors', () => {
    const tooLarge = Object.assign(new Error('x'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 });
    expect(toErrorResponse(tooLarge).body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers 503 DEPENDENCY_UNAVAILABLE with Retry-After when the database or Redis cannot be reached', () => {
    const driver = (code: string, extra: object = {}) => Object.assign(new Error(`driver ${code}`), { code, ...extra });
    const unavailable = [
      // mysql2 through TypeORM: refused, lost mid-query, the server shutting down
      new QueryFailedError('SELECT 1', [], driver('ECONNREFUSED')),
      new QueryFailedError('SELECT 1', [], driver('PROTOCOL_CONNECTION_LOST', { fatal: true })),
      new QueryFailedError('SELECT 1', [], driver('ER_SERVER_SHUTDOWN')),
      // a pool that cannot connect rejects with the driver's own error
      driver('ECONNREFUSED', { errno: -111, fatal: true }),
      driver('SQLITE_BUSY'),
      // ioredis giving up on a command while Redis is down
      Object.assign(new Error('Reached the max retries per request limit'), { name: 'MaxRetriesPerRequestError' }),
      new Error('Connection is closed.'),
    ];
    for (const err of unavailable) {
      expect({ err: err.message, ...toErrorResponse(err) }).toEqual({
        err: err.message,
        status: 503,
        body: { status: 'ERROR', error: { code: 'DEPENDENCY_UNAVAILABLE', message: expect.stringMatching(/unavailable/) } },
        headers: { 'Retry-After': '5' },
        unexpected: false,
        unavailable: true,
      });
    }
    // A query error that is the query's fault stays a 500.
    const syntax = new QueryFailedError('SELEC 1', [], driver('ER_PARSE_ERROR'));
    expect(toErrorResponse(syntax).status).toBe(500);
  });

  it('answers 409 CONFLICT when MariaDB rolled the transaction back over locks (deadlock victim, lock wait timeout)', () => {
    const driver = (code: string) => Object.assign(new Error(`driver ${code}`), { code });
    for (const code of ['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT']) {
      const err = new QueryFailedError('INSERT INTO webhook_outbox ...', [], driver(code));
      expect({ code, ...toErrorResponse(err) }).toEqual({
        code,
        status: 409,
        body: { status: 'ERROR', error: { code: 'CONFLICT', message: expect.stringMatching(/not applied; send it again$/) } },
        headers: {},
        unexpected: false,
        lockConflict: true,
      });
    }
  });

  it('answers anything else with a bare 500 and flags it for logging', () => {
    const res = toErrorResponse(new Error('SELECT * FROM users failed at /srv/app.ts:12'));
    expect(res.status).toBe(500);
    expect(res.unexpected).toBe(true);
    expect(JSON.stringify(res.body)).not.toContain('SELECT');
  });
});
