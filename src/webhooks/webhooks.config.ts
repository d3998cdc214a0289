import { declareConfig } from '../config/config';

/** Webhook deliveries' configuration (WEBHOOK_*), declared beside the module that reads it. */
declare module '../config/config' {
  interface ModuleConfig {
    webhooks: {
      /** Deliver to loopback, private, link-local and metadata addresses (tests, on-premise receivers). */
      allowPrivate: boolean;
      /** A delivery attempt's timeout. */
      timeoutMs: number;
      /** First retry delay of a failed delivery; doubles each attempt. */
      retryBackoffMs: number;
      /** Attempts per event and subscription. */
      attempts: number;
      /** A subscription whose deliveries have failed for this long is disabled. */
      disableAfterSec: number;
    };
  }
}

declareConfig('webhooks', ({ bool, int, duration }) => ({
  allowPrivate: bool('WEBHOOK_ALLOW_PRIVATE', false),
  timeoutMs: int('WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
  // 13 attempts 30 s apart doubling: the last one about 34 hours after the first.
  retryBackoffMs: int('WEBHOOK_RETRY_BACKOFF_MS', 30_000, 10, 3_600_000),
  attempts: int('WEBHOOK_ATTEMPTS', 13, 1, 50),
  disableAfterSec: duration('WEBHOOK_DISABLE_AFTER', '24h'),
}));
