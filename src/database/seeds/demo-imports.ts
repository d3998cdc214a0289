import { INestApplicationContext } from '@nestjs/common';
import { Readable } from 'node:stream';
import { DataSource } from 'typeorm';
import { AuthUser } from '../../common/auth/auth-user';
import { ImportRecord } from '../../imports/entities/import.entities';
import { ImportsService } from '../../imports/imports.service';
import { User } from '../../users/entities/user.entity';

/** Three new hires, one with a department the company does not have: a dry run to look at and commit. */
const NEW_HIRES = [
  'Employee ID,First name,Last name,Joined date,Department,Job title,Work email,Supervisor',
  'D9001,Amara,Okafor,2026-02-02,Engineering,,amara.okafor@demo.example,',
  'D9002,Lukas,Brandt,2026-02-02,Engineering,,lukas.brandt@demo.example,D9001',
  'D9003,Sofia,Marino,2026-02-16,Marketing,,sofia.marino@demo.example,',
].join('\n');

/**
 * A dry run of `new-hires.csv` by the demo Admin: Validated, with one row's error (no department
 * named Marketing) to read at /imports/{id}/errors, ready to commit with mode=valid-rows.
 * Idempotent: nothing when an import exists. Waits a few seconds for the job (in process).
 */
export async function seedDemoImports(app: INestApplicationContext, admin: User): Promise<void> {
  const ds = app.get(DataSource);
  if (await ds.getRepository(ImportRecord).exists()) return;
  const caller: AuthUser = {
    id: admin.id,
    username: admin.username,
    email: admin.email,
    level: 'Admin',
    employeeId: admin.employeeId,
    departmentIds: [],
    mustChangePassword: false,
    grantId: 'seed',
  };
  const created = await app.get(ImportsService).create(
    caller,
    { kind: 'employees' },
    {
      contentType: 'text/csv',
      contentLength: String(Buffer.byteLength(NEW_HIRES)),
      disposition: 'attachment; filename="new-hires.csv"',
      body: Readable.from([Buffer.from(NEW_HIRES)]),
    },
  );
  for (let i = 0; i < 100; i++) {
    const record = await ds.getRepository(ImportRecord).findOneByOrFail({ id: created.id });
    if (record.status !== 'Queued' && record.status !== 'Validating') return;
    await new Promise((r) => setTimeout(r, 100));
  }
}
