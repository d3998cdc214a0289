import { declareEventSchemas } from '../common/outbox/event-schemas';
import { declareSchemas } from '../common/openapi/declared-schemas';
import { WebhookEvent } from '../common/outbox/outbox';
import { ChecklistTrigger } from './entities/checklist.entities';

/** A checklist started or completed (issue 67). */
export interface ChecklistPayload {
  /** The checklist. */
  id: number;
  employee: number;
  template: number;
  trigger: ChecklistTrigger;
  effective_date: string;
}

/** An item past its due day, still open: once a day until it is done. */
export interface ChecklistItemOverduePayload {
  /** The checklist. */
  id: number;
  item: number;
  employee: number;
  title: string;
  due_date: string;
  /** The users who hold its task. */
  assignees: number[];
}

declare module '../common/outbox/outbox' {
  interface WebhookEventPayloads {
    'checklist.started': ChecklistPayload;
    'checklist.item_overdue': ChecklistItemOverduePayload;
    'checklist.completed': ChecklistPayload;
  }
}

export const CHECKLIST_WEBHOOK_EVENTS = [
  'checklist.started',
  'checklist.item_overdue',
  'checklist.completed',
] as const satisfies readonly WebhookEvent[];

const CHECKLIST_PROPERTIES = {
  id: { type: 'integer', description: 'the checklist' },
  employee: { type: 'integer' },
  template: { type: 'integer' },
  trigger: { type: 'string', enum: ['hire', 'termination', 'transfer', 'change'] },
  effective_date: { type: 'string', format: 'date' },
};

declareSchemas({
  ChecklistEventData: {
    type: 'object',
    required: Object.keys(CHECKLIST_PROPERTIES),
    properties: CHECKLIST_PROPERTIES,
  },
  ChecklistItemOverdueEventData: {
    type: 'object',
    required: ['id', 'item', 'employee', 'title', 'due_date', 'assignees'],
    properties: {
      id: { type: 'integer', description: 'the checklist' },
      item: { type: 'integer' },
      employee: { type: 'integer' },
      title: { type: 'string' },
      due_date: { type: 'string', format: 'date' },
      assignees: { type: 'array', items: { type: 'integer' }, description: 'the users who hold its task' },
    },
  },
});
declareEventSchemas({
  'checklist.started': 'ChecklistEventData',
  'checklist.item_overdue': 'ChecklistItemOverdueEventData',
  'checklist.completed': 'ChecklistEventData',
});
