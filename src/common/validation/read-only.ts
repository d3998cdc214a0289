import { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';

/** @nestjs/swagger's metadata keys (DECORATORS in its dist/constants, which its package does not export). */
const DECORATORS = {
  API_MODEL_PROPERTIES: 'swagger/apiModelProperties',
  API_MODEL_PROPERTIES_ARRAY: 'swagger/apiModelPropertiesArray',
};
import { Exclude } from 'class-transformer';

const names = (type: Type<unknown>): string[] =>
  ((Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, type.prototype as object) ?? []) as string[]).map((n) =>
    n.replace(/^:/, ''),
  );

/**
 * A PUT accepts what its GET returned (issue 41): every field of `response` that the update DTO
 * does not declare (the id, a computed `hours`, a `description`) becomes a read-only property of
 * it: documented `readOnly`, accepted whatever its value and dropped before validation, so the
 * service never sees it. Applied to the update DTO beside its declaration (or by the CRUD factory).
 */
export function acceptReadOnly(update: Type<unknown>, response: Type<unknown>): void {
  const own = new Set(names(update));
  for (const name of names(response)) {
    if (own.has(name)) continue;
    const target = update.prototype as object;
    const meta = (Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, response.prototype as object, name) ?? {}) as {
      description?: string;
    };
    const description = `read-only: ignored when sent${meta.description ? ` (${meta.description})` : ''}`;
    ApiProperty({ ...meta, required: false, readOnly: true, description })(target, name);
    Exclude({ toClassOnly: true })(target, name);
  }
}

/** Class decorator form of acceptReadOnly: `@AcceptsReadOnlyOf(AttendanceDto) class UpdateAttendanceDto`. */
export const AcceptsReadOnlyOf =
  (response: () => Type<unknown>): ClassDecorator =>
  (target) =>
    acceptReadOnly(target as unknown as Type<unknown>, response());
