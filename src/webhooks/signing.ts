import { createHmac, randomBytes } from 'node:crypto';

/** A new signing secret in the Standard Webhooks form: `whsec_` + base64 of 24 random bytes. */
export function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * The Standard Webhooks headers for `body`: `webhook-id`, `webhook-timestamp` (seconds) and
 * `webhook-signature` = `v1,` + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}` keyed with the
 * secret's decoded bytes. Receivers verify with any Standard Webhooks library.
 */
export function signedHeaders(secret: string, id: string, body: string, now = new Date()): Record<string, string> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}
