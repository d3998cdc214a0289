import { Injectable } from '@nestjs/common';
import { EntityManager, MoreThan } from 'typeorm';
import { AnonymisedSubject, PersonalData, redactJsonText } from '../privacy/personal-data';
import { OutboxEvent } from './outbox.entities';

/** Events read and rewritten at a time. */
const PAGE = 500;

/**
 * The events about a person (issue 69): the change feed and the webhooks read them from the outbox,
 * so the anonymisation redacts their payloads (personal keys null, personal values in text
 * replaced by the person's new name), the anonymisation's own events included: it runs last.
 */
@Injectable()
export class OutboxPersonalData {
  constructor(registry: PersonalData) {
    registry.register({ name: 'outbox', order: 99, anonymise: (em, subject) => this.anonymise(em, subject) });
  }

  private async anonymise(em: EntityManager, subject: AnonymisedSubject): Promise<void> {
    const repo = em.getRepository(OutboxEvent);
    for (let after = 0; ;) {
      const events = await repo.find({
        where: { employeeId: subject.employeeId, id: MoreThan(after) },
        order: { id: 'ASC' },
        take: PAGE,
        select: { id: true, payload: true },
      });
      for (const e of events) {
        const payload = redactJsonText(e.payload, subject);
        if (payload !== e.payload) await repo.update({ id: e.id }, { payload });
      }
      if (events.length < PAGE) return;
      after = events[events.length - 1].id;
    }
  }
}
