import { WebhookEvent } from '../common/outbox/outbox';

/** The payload of task.assigned: a task an Admin gave a user (POST /tasks). */
export interface TaskAssignedPayload {
  id: number;
  user: number;
  title: string;
  priority: string;
  due_date: string | null;
  link: string | null;
}

/** Webhook events (common/outbox WebhookEventPayloads): name → payload. */
declare module '../common/outbox/outbox' {
  interface WebhookEventPayloads {
    'task.assigned': TaskAssignedPayload;
  }
}

export const TASK_WEBHOOK_EVENTS = ['task.assigned'] as const satisfies readonly WebhookEvent[];
