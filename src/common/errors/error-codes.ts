/**
 * Stable error codes of the API (API.md §2) and the HTTP status each maps to. Clients switch on
 * the code; the status follows from it, in this one table.
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  INVALID_JSON: 400,
  VALIDATION_FAILED: 400,
  INVALID_REQUEST: 400,
  UNSUPPORTED_GRANT_TYPE: 400,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  INVALID_GRANT: 400,
  FORBIDDEN: 403,
  FIELD_NOT_ALLOWED: 403,
  PASSWORD_CHANGE_REQUIRED: 403,
  NOT_AN_APPROVER: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  DUPLICATE: 409,
  USERNAME_TAKEN: 409,
  EMAIL_TAKEN: 409,
  USER_EXISTS: 409,
  LAST_ADMIN: 409,
  IN_USE: 409,
  INVALID_STATE: 409,
  ALREADY_DECIDED: 409,
  MISSING_BANK_ACCOUNTS: 409,
  UNMAPPED_COLUMNS: 409,
  PRECONDITION_FAILED: 412,
  IDEMPOTENCY_KEY_REUSED: 409,
  ALREADY_PUNCHED_IN: 409,
  NOT_PUNCHED_IN: 409,
  OUT_BEFORE_IN: 409,
  OVERLAPPING_ATTENDANCE: 409,
  LEAVE_OVERLAP: 409,
  INSUFFICIENT_BALANCE: 400,
  NOT_ENCASHABLE: 409,
  PAYROLL_TESTS_FAILED: 409,
  INVALID_PERIOD: 400,
  WEBHOOK_URL_NOT_ALLOWED: 400,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RANGE_NOT_SATISFIABLE: 416,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  API_DISABLED: 503,
  DEPENDENCY_UNAVAILABLE: 503,
  PDF_UNAVAILABLE: 503,
  MAIL_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The code used when only an HTTP status is known (framework errors). */
export function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'BAD_REQUEST';
    case 401:
      return 'UNAUTHORIZED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 405:
      return 'METHOD_NOT_ALLOWED';
    case 409:
      return 'CONFLICT';
    case 412:
      return 'PRECONDITION_FAILED';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    case 429:
      return 'RATE_LIMITED';
    case 503:
      return 'DEPENDENCY_UNAVAILABLE';
    default:
      return status >= 500 ? 'INTERNAL_ERROR' : 'BAD_REQUEST';
  }
}
