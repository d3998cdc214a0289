import { ERROR_STATUS, ErrorCode } from './error-codes';

export interface ErrorDetail {
  field: string;
  message: string;
  /** MFA_REQUIRED only: the sign-in challenge to send with grant_type mfa_otp. */
  mfa_token?: string;
}

/**
 * The one exception services throw. It carries a stable code; the global filter maps the code to
 * an HTTP status and writes the error envelope. Services never throw HttpException.
 */
export class DomainException extends Error {
  constructor(
    public readonly code: ErrorCode,
    message: string,
    public readonly details?: ErrorDetail[],
    /** Extra response headers, e.g. Retry-After for RATE_LIMITED. */
    public readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'DomainException';
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export class NotFoundException extends DomainException {
  constructor(what = 'Record') {
    super('NOT_FOUND', `${what} not found`);
  }
}

export class ValidationException extends DomainException {
  constructor(details: ErrorDetail[]) {
    const first = details[0];
    super('VALIDATION_FAILED', first ? `${first.field} ${first.message}` : 'Validation failed', details);
  }

  static field(field: string, message: string): ValidationException {
    return new ValidationException([{ field, message }]);
  }
}
