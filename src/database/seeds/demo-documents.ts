import { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DocumentTypesService } from '../../documents/document-types.service';
import { DocumentType } from '../../documents/entities/document-type.entity';

/** The demo company's document types (issue 28): what an HR team keeps, some of it expiring. Idempotent. */
export async function seedDemoDocuments(app: INestApplicationContext): Promise<void> {
  if (await app.get(DataSource).getRepository(DocumentType).exists()) return;
  const types = app.get(DocumentTypesService).types;
  await types.create({ name: 'Passport', expires: true, notify_days_before: [90, 30, 7] });
  await types.create({ name: 'Work permit', expires: true, notify_days_before: [90, 30, 7, 1] });
  await types.create({ name: 'Employment contract', visible_to_manager: true });
  await types.create({ name: 'Certificate', visible_to_manager: true, employee_may_upload: true });
}
