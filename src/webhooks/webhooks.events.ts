/** The payload of the internal event webhook.disabled. */
export interface WebhookDisabledPayload {
  webhook: number;
  url: string;
  /** Why: since when deliveries failed and the last failure. */
  reason: string;
}

/** Internal events (common/outbox InternalEventPayloads): the Admins' task of a disabled subscription. */
declare module '../common/outbox/outbox' {
  interface InternalEventPayloads {
    /** A subscription failed for longer than WEBHOOK_DISABLE_AFTER and was switched off. */
    'webhook.disabled': WebhookDisabledPayload;
  }
}
