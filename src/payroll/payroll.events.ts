import { WebhookEvent } from '../common/outbox/outbox';
import { PayrollStatus } from './entities/payroll-run.entities';

/** The payload of a payroll's webhook events: the payroll, its status, how many employees and errors. */
export interface PayrollWebhookPayload {
  id: number;
  status: PayrollStatus;
  employees: number;
  errors: number;
}

/** The payload of payslip.sent and payslip.failed: the payslip, whose e-mail went out or failed. */
export interface PayslipDeliveryPayload {
  id: number;
  payroll: number;
  employee: number;
  /** sent or failed */
  delivery_status: string;
  /** When the SMTP server accepted it (payslip.sent); null otherwise. */
  delivered_at: string | null;
  /** The SMTP server's answer (payslip.failed); null otherwise. */
  error: string | null;
}

/** The payload of payroll.bank_file_created: which file of which revision was made. */
export interface BankFilePayload {
  id: number;
  revision: number;
  format: string;
  execution_date: string;
  transfers: number;
  msg_id: string;
}

/** Webhook events (common/outbox WebhookEventPayloads): name → payload. */
declare module '../common/outbox/outbox' {
  interface WebhookEventPayloads {
    'payroll.processed': PayrollWebhookPayload;
    'payroll.failed': PayrollWebhookPayload;
    'payroll.completed': PayrollWebhookPayload;
    'payslip.sent': PayslipDeliveryPayload;
    'payslip.failed': PayslipDeliveryPayload;
    'payroll.bank_file_created': BankFilePayload;
  }
}

export const PAYROLL_WEBHOOK_EVENTS = [
  'payroll.processed',
  'payroll.failed',
  'payroll.completed',
  'payslip.sent',
  'payslip.failed',
  'payroll.bank_file_created',
] as const satisfies readonly WebhookEvent[];
