import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as authenticator apps implement it: SHA-1, six digits, 30-second steps. */
export const TOTP_PERIOD_S = 30;
const DIGITS = 6;
/** Codes of the step before and after the current one are accepted too (clock drift). */
const WINDOW = 1;

/** A new secret of 20 random bytes (RFC 4226 §4's recommended length), in Base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secretBase32: string, label = 'user', issuer = 'HR'): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: TOTP_PERIOD_S,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** The otpauth:// URL an authenticator app reads from a QR code. */
export function totpUrl(secretBase32: string, label: string, issuer: string): string {
  return totp(secretBase32, label, issuer).toString();
}

/** The code of a moment (RFC 6238's test vectors check this). */
export function totpCode(secretBase32: string, timestampMs: number): string {
  return totp(secretBase32).generate({ timestamp: timestampMs });
}

/**
 * The 30-second step a code belongs to, when it is the code of the current step or one either
 * side; null otherwise. The caller refuses a step it has already accepted (a replayed code).
 */
export function totpStepOf(secretBase32: string, code: string, nowMs = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secretBase32).validate({ token: code, timestamp: nowMs, window: WINDOW });
  return delta === null ? null : Math.floor(nowMs / 1000 / TOTP_PERIOD_S) + delta;
}
