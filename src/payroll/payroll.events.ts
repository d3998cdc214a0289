import { WebhookEvent } from '../common/outbox/outbox';
import { PayrollStatus } from './entities/payroll-run.entities';

/** For the Tasks module ("review payroll X") and, later, webhooks. */
export const PAYROLL_PROCESSED_EVENT = 'payroll.processed';
export const PAYROLL_FAILED_EVENT = 'payroll.failed';
export const PAYROLL_COMPLETED_EVENT = 'payroll.completed';

export interface PayrollEvent {
  payrollId: number;
  status: string;
  employees: number;
  errors: number;
}

/** The payload of a payroll's webhook events: the payroll, its status, how many employees and errors. */
export interface PayrollWebhookPayload {
  id: number;
  status: PayrollStatus;
  employees: number;
  errors: number;
}

/** Webhook events (common/outbox WebhookEventPayloads): name → payload. */
declare module '../common/outbox/outbox' {
  interface WebhookEventPayloads {
    'payroll.processed': PayrollWebhookPayload;
    'payroll.failed': PayrollWebhookPayload;
    'payroll.completed': PayrollWebhookPayload;
  }
}

export const PAYROLL_WEBHOOK_EVENTS = [
  'payroll.processed',
  'payroll.failed',
  'payroll.completed',
] as const satisfies readonly WebhookEvent[];
