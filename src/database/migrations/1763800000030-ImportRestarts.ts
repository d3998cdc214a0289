import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * Issue 41: how many times an import's attempt was taken up again after its process died. At
 * JOB_MAX_WORKER_DEATHS the import ends Failed instead of crash-looping every worker that takes it.
 */
export class ImportRestarts1763800000030 implements MigrationInterface {
  name = 'ImportRestarts1763800000030';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('imports', new TableColumn({ name: 'restarts', type: 'integer', default: 0 }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('imports', 'restarts');
  }
}
