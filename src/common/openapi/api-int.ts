import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';

const INT32 = { type: 'integer', format: 'int32' } as const;

function integer(options: ApiPropertyOptions): ApiPropertyOptions {
  const list = Array.isArray((options as { type?: unknown }).type) || (options as { isArray?: boolean }).isArray === true;
  return { ...options, ...INT32, ...(list ? { isArray: true } : {}) } as ApiPropertyOptions;
}

/**
 * An integer in the document (`type: integer, format: int32`), for ids, references and counts:
 * TypeScript's `number` documents `type: number`, and generated clients and mock servers then made
 * `/webhooks/719.07`. Integer-ness is the DTO's own: the document post-processor adds none
 * (issue 41). `type: [Number]` or `isArray: true` documents a list of integers.
 */
export const ApiInt = (options: ApiPropertyOptions = {}): PropertyDecorator => ApiProperty(integer(options));
export const ApiIntOptional = (options: ApiPropertyOptions = {}): PropertyDecorator => ApiPropertyOptional(integer(options));
