import { declareEventSchemas } from '../common/outbox/event-schemas';
import { declareSchemas } from '../common/openapi/declared-schemas';
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

declareSchemas({
  TaskAssignedEventData: {
    type: 'object',
    required: ['id', 'user', 'title', 'priority', 'due_date', 'link'],
    properties: {
      id: { type: 'integer', description: 'the task' },
      user: { type: 'integer' },
      title: { type: 'string' },
      priority: { type: 'string' },
      due_date: { type: 'string', format: 'date', nullable: true },
      link: { type: 'string', nullable: true },
    },
  },
});
declareEventSchemas({ 'task.assigned': 'TaskAssignedEventData' });
