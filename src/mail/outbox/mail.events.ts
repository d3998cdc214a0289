import { OutgoingMailStatus } from './outgoing-mail.entity';

/** The payload of `mail.settled`: which e-mail, its owner's key, and how it ended. */
export interface MailSettledPayload {
  id: number;
  purpose: string;
  ref: string;
  request: string;
  status: Exclude<OutgoingMailStatus, 'queued' | 'sending'>;
  error: string | null;
  finished_at: string;
}

/** Internal events (common/outbox InternalEventPayloads). */
declare module '../../common/outbox/outbox' {
  interface InternalEventPayloads {
    /** An outgoing e-mail was sent, failed for good, or may or may not have gone (`unknown`). */
    'mail.settled': MailSettledPayload;
  }
}
