import { declareChangeEvents } from '../common/outbox/event-schemas';
import { ChangeEventPayload, WebhookEvent } from '../common/outbox/outbox';

/** The payload of the internal events user.must_change_password and user.password_changed. */
export interface UserEventPayload {
  user: number;
}

/** Internal events (common/outbox InternalEventPayloads): the tasks' "change your temporary password". */
declare module '../common/outbox/outbox' {
  interface InternalEventPayloads {
    /** A user was made with a password it must replace (a user for an employee, its password e-mailed). */
    'user.must_change_password': UserEventPayload;
    /** A user changed its own password. */
    'user.password_changed': UserEventPayload;
  }
}

/** Webhook events (common/outbox WebhookEventPayloads): name → payload. */
declare module '../common/outbox/outbox' {
  interface WebhookEventPayloads {
    'user.created': ChangeEventPayload;
    /** A user's sign-in name, e-mail, level, active flag or provisioned attributes changed through SCIM. */
    'user.updated': ChangeEventPayload;
    /** A user was deleted through SCIM. */
    'user.deleted': ChangeEventPayload;
  }
}

export const USER_WEBHOOK_EVENTS = ['user.created', 'user.updated', 'user.deleted'] as const satisfies readonly WebhookEvent[];

declareChangeEvents(USER_WEBHOOK_EVENTS);
