import { Secret } from 'otpauth';
import { newTotpSecret, totpCode, totpStepOf, totpUrl } from './totp';

// RFC 6238 Appendix B: the SHA-1 seed is the ASCII "12345678901234567890"; eight-digit codes there,
// whose last six digits are what a six-digit generator gives (the code is the value mod 10^digits).
const RFC_SECRET = Secret.fromLatin1('12345678901234567890').base32;
const VECTORS: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238)', () => {
  it.each(VECTORS)('at %i s gives the last six digits of %s', (seconds, eight) => {
    expect(totpCode(RFC_SECRET, seconds * 1000)).toBe(eight.slice(2));
  });

  it('accepts the current step and one either side, and names the step', () => {
    const now = 1111111111 * 1000;
    const step = Math.floor(1111111111 / 30);
    expect(totpStepOf(RFC_SECRET, totpCode(RFC_SECRET, now), now)).toBe(step);
    expect(totpStepOf(RFC_SECRET, totpCode(RFC_SECRET, now - 30_000), now)).toBe(step - 1);
    expect(totpStepOf(RFC_SECRET, totpCode(RFC_SECRET, now + 30_000), now)).toBe(step + 1);
    expect(totpStepOf(RFC_SECRET, totpCode(RFC_SECRET, now - 60_000), now)).toBeNull();
    expect(totpStepOf(RFC_SECRET, totpCode(RFC_SECRET, now + 60_000), now)).toBeNull();
  });

  it('refuses what is not six digits', () => {
    expect(totpStepOf(RFC_SECRET, ' 123456', 0)).toBeNull();
    expect(totpStepOf(RFC_SECRET, '12345', 0)).toBeNull();
  });

  it('makes 160-bit secrets and an otpauth URL naming issuer and account', () => {
    const secret = newTotpSecret();
    expect(Secret.fromBase32(secret).bytes).toHaveLength(20);
    const url = new URL(totpUrl(secret, 'ada@example.com', 'Acme HR'));
    expect(url.protocol).toBe('otpauth:');
    expect(url.searchParams.get('secret')).toBe(secret);
    expect(url.searchParams.get('issuer')).toBe('Acme HR');
    expect(decodeURIComponent(url.pathname)).toContain('ada@example.com');
  });
});
