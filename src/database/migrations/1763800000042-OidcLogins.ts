import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * Issue 47: OpenID Connect sign-in. A sign-in under way: its state (hashed), the browser it was
 * started in (a cookie, hashed), its PKCE verifier and nonce, where to return; used once.
 */
export class OidcLogins1763800000042 implements MigrationInterface {
  name = 'OidcLogins1763800000042';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'oidc_logins',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'state_hash', type: 'varchar', length: '64' },
          { name: 'browser_hash', type: 'varchar', length: '64' },
          { name: 'code_verifier', type: 'varchar', length: '128' },
          { name: 'nonce', type: 'varchar', length: '128' },
          { name: 'return_to', type: 'varchar', length: '2000', isNullable: true },
          { name: 'expires_at', type: 'datetime' },
          { name: 'used_at', type: 'datetime', isNullable: true },
        ],
        indices: [
          new TableIndex({ name: 'uq_oidc_logins_state', columnNames: ['state_hash'], isUnique: true }),
          new TableIndex({ name: 'ix_oidc_logins_expires', columnNames: ['expires_at'] }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('oidc_logins');
  }
}
