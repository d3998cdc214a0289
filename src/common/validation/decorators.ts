import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  registerDecorator,
  ValidateIf,
  ValidationOptions,
} from 'class-validator';
import currencyCodes from 'currency-codes';
import Decimal from 'decimal.js';
import countries from 'i18n-iso-countries/index';

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** YYYY-MM-DD that names a real calendar day (2023-02-30 is refused). */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return y >= 1900 && y <= 2999 && date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

export function simple(
  name: string,
  test: (v: unknown) => boolean,
  message: string,
  options?: ValidationOptions,
): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: `$property ${message}`, ...options },
      validator: { validate: test },
    });
}

/**
 * A finite number with at most `decimals` decimals, whatever its written form: 1e-9 has nine (9e-10
 * too), 1e2 none. (class-validator's maxDecimalPlaces splits the number's text on '.' and threw a
 * TypeError, a 500, on exponent forms.)
 */
export function hasMaxDecimals(value: unknown, decimals: number): boolean {
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  return new Decimal(value).decimalPlaces() <= decimals;
}

export const MaxDecimals = (decimals: number, o?: ValidationOptions) =>
  simple(
    'maxDecimals',
    (v) => hasMaxDecimals(v, decimals),
    `must have at most ${decimals} decimal place${decimals === 1 ? '' : 's'}`,
    o,
  );

const DATETIME_RE = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** ISO 8601 date-time with an offset ("2026-03-10T23:30:00-05:00" or "...Z"): the instant is unambiguous. */
export function isIsoDateTime(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = DATETIME_RE.exec(value);
  return !!m && isCalendarDate(m[1]) && !Number.isNaN(Date.parse(value));
}

export const IsIsoDateTime = (o?: ValidationOptions) =>
  simple('isIsoDateTime', isIsoDateTime, 'must be an ISO 8601 date-time with an offset, such as 2026-03-10T09:00:00+01:00', o);

export const IsCalendarDate = (o?: ValidationOptions) =>
  simple('isCalendarDate', isCalendarDate, 'must be a real date YYYY-MM-DD', o);

/** ISO 3166-1 alpha-2 country code, e.g. "DE". */
export const IsCountryCode = (o?: ValidationOptions) =>
  simple(
    'isCountryCode',
    (v) => typeof v === 'string' && /^[A-Z]{2}$/.test(v) && countries.isValid(v),
    'must be an ISO 3166-1 alpha-2 country code such as DE',
    o,
  );

/** ISO 4217 currency code, e.g. "EUR". */
export const IsCurrencyCode = (o?: ValidationOptions) =>
  simple(
    'isCurrencyCode',
    (v) => typeof v === 'string' && /^[A-Z]{3}$/.test(v) && currencyCodes.code(v) !== undefined,
    'must be an ISO 4217 currency code such as EUR',
    o,
  );

/** The condition behind Nullable(); the validation pipe recognizes nullable properties by it. */
export const NULLABLE_CONDITION = (_o: unknown, v: unknown): boolean => v !== null;

/**
 * Accepts null (to clear the field) as well as values passing the other validators. Without it,
 * the validation pipe refuses null for the property (IsOptional alone lets null through).
 */
export const Nullable = () => ValidateIf(NULLABLE_CONDITION);

/** The id of another record: a positive 32-bit integer. */
export const IsRefId = (o?: ValidationOptions) => applyDecorators(IsInt(o), Min(1, o), Max(2_147_483_647, o));

/** Trims strings before validation, so "  " counts as empty. */
export const Trim = () => Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));

/** Line breaks (CR, LF, NEL, U+2028, U+2029): a name or a phone number holds none (a CRLF in a name reached e-mail headers). */
const LINE_BREAK = /[\r\n\u0085\u2028\u2029]/;

/** A one-line text: no line breaks (the pipe refuses other control characters in every text). */
export const SingleLine = (o?: ValidationOptions) =>
  simple('singleLine', (v) => typeof v !== 'string' || !LINE_BREAK.test(v), 'must be one line (no line breaks)', o);

/**
 * An optional, trimmed text field of at most `max` characters that null clears: one line unless
 * `multiLine` (notes, descriptions).
 */
export const OptionalText = (max: number, opts: { multiLine?: boolean } = {}) =>
  applyDecorators(
    ApiPropertyOptional({ type: String, nullable: true, maxLength: max }),
    Trim(),
    IsOptional(),
    Nullable(),
    IsString(),
    MaxLength(max),
    ...(opts.multiLine ? [] : [SingleLine()]),
  );
