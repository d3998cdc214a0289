import { Type, ValidationError, ValidationPipe } from '@nestjs/common';
import { ErrorDetail, ValidationException } from '../errors/domain.exception';

/** Turns class-validator errors into field-keyed details: "work_email" / "must be an email". */
export function validationDetails(errors: ValidationError[], parent = ''): ErrorDetail[] {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const own = Object.entries(e.constraints ?? {}).map(([rule, message]) => ({
      field,
      message: rule === 'whitelistValidation' ? 'is not allowed' : message.replace(new RegExp(`^${e.property}\\s+`), ''),
    }));
    return [...own, ...validationDetails(e.children ?? [], field)];
  });
}

/**
 * The one strict validation pipe (transform, whitelist, forbidNonWhitelisted, field-keyed 400s).
 * `expectedType` serves routes built by factories, whose parameter types TypeScript erases.
 */
export function createValidationPipe(expectedType?: Type<unknown>): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    expectedType,
    exceptionFactory: (errors) => new ValidationException(validationDetails(errors)),
  });
}
