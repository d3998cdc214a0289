import { Injectable } from '@nestjs/common';
import { PersonalData } from '../common/privacy/personal-data';
import { replaceInText } from '../common/privacy/redact-sql';

/** Tasks that name a person (issue 69: "Approve a time entry of Hugo Bauer"): its values replaced by its new name. */
@Injectable()
export class TasksPersonalData {
  constructor(registry: PersonalData) {
    registry.register({
      name: 'tasks',
      order: 60,
      anonymise: (em, subject) => replaceInText(em, 'tasks', ['title', 'description'], subject),
    });
  }
}
