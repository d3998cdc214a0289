import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ERROR_STATUS, ErrorCode } from '../errors/error-codes';

export class ErrorDetailDto {
  @ApiProperty({ example: 'work_email' }) field: string;
  @ApiProperty({ example: 'must be an email' }) message: string;
  @ApiPropertyOptional({ description: 'MFA_REQUIRED only: the sign-in challenge for grant_type mfa_otp (5 minutes)' })
  mfa_token?: string;
}

export class ErrorBodyDto {
  @ApiProperty({ enum: Object.keys(ERROR_STATUS), example: 'VALIDATION_FAILED' }) code: ErrorCode;
  @ApiProperty({ example: 'work_email must be an email' }) message: string;
  @ApiPropertyOptional({ type: [ErrorDetailDto] }) details?: ErrorDetailDto[];
}

export class ErrorEnvelopeDto {
  @ApiProperty({ enum: ['ERROR'] }) status: 'ERROR';
  @ApiProperty({ type: ErrorBodyDto }) error: ErrorBodyDto;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid input (bad JSON, failed validation, bad query parameter)',
  401: 'Missing, invalid, expired or revoked token',
  403: 'Authenticated but not allowed',
  404: "Unknown route or record (also records outside the caller's scope)",
  409: 'Conflict with the current state',
  412: 'If-Match names a version that is no longer the current one (PRECONDITION_FAILED): read it again',
  413: 'Request body too large',
  415: 'Content-Type is not application/json',
  429: 'Rate limited; see Retry-After',
  503: 'REST API disabled (API_DISABLED) or a dependency down',
};

/** Documents error responses with the error envelope. 503 (API disabled) applies to every route. */
export function ApiErrors(...statuses: number[]) {
  return applyDecorators(
    ApiExtraModels(ErrorEnvelopeDto),
    ...[...new Set([...statuses, 503])].map((status) =>
      ApiResponse({ status, description: STATUS_TEXT[status] ?? 'Error', schema: { $ref: getSchemaPath(ErrorEnvelopeDto) } }),
    ),
  );
}

/** 200 (or `status`: 202 for work a job goes on with) with {status: "SUCCESS", data: <model>}. */
export function ApiOkEnvelope(model: Type<unknown>, description = 'Success', status = 200) {
  return applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status,
      description,
      schema: {
        type: 'object',
        required: ['status', 'data'],
        properties: { status: { type: 'string', enum: ['SUCCESS'] }, data: { $ref: getSchemaPath(model) } },
      },
    }),
  );
}

/** 200 with {status: "SUCCESS", data: [<model>...]}: a whole (small) array, not a paged list. */
export function ApiArrayEnvelope(model: Type<unknown>, description = 'Success') {
  return applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status: 200,
      description,
      schema: {
        type: 'object',
        required: ['status', 'data'],
        properties: {
          status: { type: 'string', enum: ['SUCCESS'] },
          data: { type: 'array', items: { $ref: getSchemaPath(model) } },
        },
      },
    }),
  );
}

/** 200 with the list envelope: data array plus total, page, limit, nextPage. */
export function ApiListEnvelope(model: Type<unknown>, description = 'One page of the list') {
  return applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status: 200,
      description,
      schema: {
        type: 'object',
        required: ['status', 'data', 'total', 'page', 'limit', 'nextPage'],
        properties: {
          status: { type: 'string', enum: ['SUCCESS'] },
          data: { type: 'array', items: { $ref: getSchemaPath(model) } },
          total: { type: 'integer', example: 1234 },
          page: { type: 'integer', example: 1 },
          limit: { type: 'integer', example: 50 },
          nextPage: { type: 'integer', nullable: true, example: 2 },
        },
      },
    }),
  );
}

/** 200 with the feed envelope: data array plus next_after (the cursor of the next page). */
export function ApiCursorEnvelope(model: Type<unknown>, description = 'One page of the feed') {
  return applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status: 200,
      description,
      schema: {
        type: 'object',
        required: ['status', 'data', 'next_after'],
        properties: {
          status: { type: 'string', enum: ['SUCCESS'] },
          data: { type: 'array', items: { $ref: getSchemaPath(model) } },
          next_after: { type: 'integer', example: 1500 },
        },
      },
    }),
  );
}
