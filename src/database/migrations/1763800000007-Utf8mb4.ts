import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * MariaDB/MySQL: every table, and the database's default for tables made later, in utf8mb4, so CJK
 * names and emoji are stored as sent on a server whose default character set is latin1. SQLite
 * stores UTF-8 already.
 */
export class Utf8mb41763800000007 implements MigrationInterface {
  name = 'Utf8mb41763800000007';

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.options.type !== 'mysql') return;
    await q.query('ALTER DATABASE CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci');
    const tables = (await q.query(
      `SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE' AND table_collation <> 'utf8mb4_unicode_ci'`,
    )) as Array<{ name: string }>;
    await q.query('SET FOREIGN_KEY_CHECKS = 0');
    try {
      for (const { name } of tables) {
        await q.query(`ALTER TABLE \`${name.replace(/`/g, '``')}\` CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
      }
    } finally {
      await q.query('SET FOREIGN_KEY_CHECKS = 1');
    }
  }

  async down(): Promise<void> {
    // Converting back could lose characters: nothing to undo.
  }
}
