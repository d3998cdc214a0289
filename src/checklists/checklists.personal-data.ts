import { Injectable } from '@nestjs/common';
import { PersonalData, underEmployees } from '../common/privacy/personal-data';
import { Checklist, ChecklistItem } from './entities/checklist.entities';

/** The lifecycle checklists of a person (issue 69): in its subject-access export; they stay after anonymisation. */
@Injectable()
export class ChecklistsPersonalData {
  constructor(registry: PersonalData) {
    registry.register({
      name: 'checklists',
      order: 70,
      export: (em, employeeId, out) =>
        out.lists('checklists.json', 'the onboarding, offboarding and change checklists about the employee and their items', [
          { name: 'checklists', entity: Checklist, where: { employeeId } },
          {
            name: 'items',
            entity: ChecklistItem,
            where: { checklistId: underEmployees('checklists', [employeeId]) },
          },
        ]),
    });
  }
}
