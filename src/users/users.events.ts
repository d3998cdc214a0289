import { ChangeEventPayload, WebhookEvent } from '../common/outbox/outbox';

/** Emitted after a user was created for an employee; the Tasks module adds "change your temporary password". */
export const USER_CREATED_EVENT = 'user.created';
export interface UserCreatedEvent {
  userId: number;
  employeeId: number;
  temporaryPassword: boolean;
}

/** Emitted after a user changed its own password; the Tasks module completes "change your temporary password". */
export const USER_PASSWORD_CHANGED_EVENT = 'user.password_changed';
export interface UserPasswordChangedEvent {
  userId: number;
}

/** Webhook events (common/outbox WebhookEventPayloads): name → payload. */
declare module '../common/outbox/outbox' {
  interface WebhookEventPayloads {
    'user.created': ChangeEventPayload;
  }
}

export const USER_WEBHOOK_EVENTS = ['user.created'] as const satisfies readonly WebhookEvent[];
