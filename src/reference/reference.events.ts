import { ChangeEventPayload } from '../common/outbox/outbox';

/** Events of reference data the service itself reacts to (common/outbox InternalEventPayloads): name → payload. */
declare module '../common/outbox/outbox' {
  interface InternalEventPayloads {
    'department.changed': ChangeEventPayload;
    'pay_grade.changed': ChangeEventPayload;
    'employment_status.changed': ChangeEventPayload;
  }
}
