import { ErrorCode } from './error-codes';
import { ErrorDetail } from './domain.exception';

export interface ErrorEnvelope {
  status: 'ERROR';
  error: { code: ErrorCode; message: string; details?: ErrorDetail[] };
}

export function errorEnvelope(code: ErrorCode, message: string, details?: ErrorDetail[]): ErrorEnvelope {
  return { status: 'ERROR', error: details?.length ? { code, message, details } : { code, message } };
}
