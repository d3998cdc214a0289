/** A subscription failed for longer than WEBHOOK_DISABLE_AFTER and was disabled (the Tasks module tells the Admins). */
export const WEBHOOK_DISABLED_EVENT = 'webhook.disabled';

export interface WebhookDisabledEvent {
  webhookId: number;
  url: string;
  reason: string;
}
