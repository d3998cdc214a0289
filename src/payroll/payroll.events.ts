import { declareEventSchemas } from '../common/outbox/event-schemas';
import { declareSchemas } from '../common/openapi/declared-schemas';
import { ChangeEventPayload, WebhookEvent } from '../common/outbox/outbox';
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
  interface InternalEventPayloads {
    /** A pay frequency's settings changed (its proration). */
    'pay_frequency.changed': ChangeEventPayload;
    /** An employee's payroll settings (pay frequency, currency, deduction group) were set or removed. */
    'payroll_employee.changed': ChangeEventPayload;
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

declareSchemas({
  PayrollEventData: {
    type: 'object',
    required: ['id', 'status', 'employees', 'errors'],
    properties: {
      id: { type: 'integer' },
      status: { type: 'string', description: 'the payroll state' },
      employees: { type: 'integer' },
      errors: { type: 'integer' },
    },
  },
  PayslipDeliveryEventData: {
    type: 'object',
    required: ['id', 'payroll', 'employee', 'delivery_status', 'delivered_at', 'error'],
    properties: {
      id: { type: 'integer', description: 'the payslip' },
      payroll: { type: 'integer' },
      employee: { type: 'integer' },
      delivery_status: { type: 'string', description: 'sent or failed' },
      delivered_at: { type: 'string', format: 'date-time', nullable: true },
      error: { type: 'string', nullable: true },
    },
  },
  BankFileEventData: {
    type: 'object',
    required: ['id', 'revision', 'format', 'execution_date', 'transfers', 'msg_id'],
    properties: {
      id: { type: 'integer', description: 'the payroll' },
      revision: { type: 'integer' },
      format: { type: 'string' },
      execution_date: { type: 'string', format: 'date' },
      transfers: { type: 'integer' },
      msg_id: { type: 'string' },
    },
  },
});
declareEventSchemas({
  'payroll.processed': 'PayrollEventData',
  'payroll.failed': 'PayrollEventData',
  'payroll.completed': 'PayrollEventData',
  'payslip.sent': 'PayslipDeliveryEventData',
  'payslip.failed': 'PayslipDeliveryEventData',
  'payroll.bank_file_created': 'BankFileEventData',
});
