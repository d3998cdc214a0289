import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { PersonalData } from '../../common/privacy/personal-data';
import { OutgoingMail } from './outgoing-mail.entity';

/** The mail outbox's record of messages to a person (issue 69): their addresses, when they are the person's, cleared. */
@Injectable()
export class MailPersonalData {
  constructor(registry: PersonalData) {
    registry.register({
      name: 'mail',
      order: 60,
      anonymise: async (em, subject) => {
        const addresses = subject.values.filter((v) => v.includes('@'));
        if (addresses.length) await em.getRepository(OutgoingMail).update({ address: In(addresses) }, { address: null });
      },
    });
  }
}
