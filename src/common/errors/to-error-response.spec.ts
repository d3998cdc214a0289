import { BadRequestException, NotFoundException as NestNotFound, UnauthorizedException } from '@nestjs/common';
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

  it('answers anything else with a bare 500 and flags it for logging', () => {
    const res = toErrorResponse(new Error('SELECT * FROM users failed at /srv/app.ts:12'));
    expect(res.status).toBe(500);
    expect(res.unexpected).toBe(true);
    expect(JSON.stringify(res.body)).not.toContain('SELECT');
  });
});
