import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, registerDecorator, ValidationArguments } from 'class-validator';
import { Nullable } from '../validation/decorators';
import { bicProblem, ibanProblem, normalizeIban } from './iban';
import { sepaNameProblem } from './sepa-text';

/** A decorator whose message is the check's own reason (checksum, length, country). */
function checked(name: string, problem: (value: string) => string | null): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (v: unknown) => typeof v === 'string' && problem(v) === null,
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property ?? name} ${typeof args?.value === 'string' ? problem(args.value) : 'must be a string'}`,
      },
    });
}

/** An IBAN (spaces allowed, stored without them, upper case), checked by ISO 13616. */
export const IsIban = (description?: string) =>
  applyDecorators(
    ApiProperty({ example: 'DE89370400440532013000', maxLength: 42, description }),
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' && value.length <= 42 ? normalizeIban(value) : value,
    ),
    checked('isIban', ibanProblem),
  );

/** An optional BIC (ISO 9362); null or absent: none (SEPA needs only the IBAN). */
export const IsOptionalBic = () =>
  applyDecorators(
    ApiPropertyOptional({ type: String, nullable: true, example: 'COBADEFFXXX', minLength: 8, maxLength: 11 }),
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toUpperCase() || null : value)),
    IsOptional(),
    Nullable(),
    IsString(),
    checked('isBic', bicProblem),
  );

/** An account holder's name that a SEPA file carries as written (no emoji or symbols that transliterate to nothing). */
export const IsHolderName = () => checked('isHolderName', sepaNameProblem);
