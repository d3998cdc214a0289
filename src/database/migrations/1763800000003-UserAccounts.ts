import { MigrationInterface, QueryRunner, TableColumn, TableForeignKey, TableIndex } from 'typeorm';

/** What create-user and the users API keep on a user: preferences and the welcome e-mail's outcome. */
export class UserAccounts1763800000003 implements MigrationInterface {
  name = 'UserAccounts1763800000003';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumns('users', [
      new TableColumn({ name: 'user_roles', type: 'varchar', length: '500', isNullable: true }),
      new TableColumn({ name: 'lang', type: 'varchar', length: '10', isNullable: true }),
      new TableColumn({ name: 'default_module', type: 'varchar', length: '50', isNullable: true }),
      new TableColumn({ name: 'welcome_email_status', type: 'varchar', length: '10', isNullable: true }),
      new TableColumn({ name: 'welcome_email_sent_at', type: 'datetime', isNullable: true }),
    ]);
    // A user's employee is an employee: deleting the employee unlinks the user (the service also deactivates it).
    await q.query('UPDATE users SET employee_id = NULL WHERE employee_id NOT IN (SELECT id FROM employees)');
    // One user per employee (create-user answers USER_EXISTS; the index settles concurrent requests).
    await q.dropIndex('users', 'ix_users_employee');
    await q.createIndex('users', new TableIndex({ name: 'uq_users_employee', columnNames: ['employee_id'], isUnique: true }));
    await q.createForeignKey(
      'users',
      new TableForeignKey({
        name: 'fk_users_employee_id',
        columnNames: ['employee_id'],
        referencedTableName: 'employees',
        referencedColumnNames: ['id'],
        onDelete: 'SET NULL',
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropForeignKey('users', 'fk_users_employee_id');
    await q.dropIndex('users', 'uq_users_employee');
    await q.createIndex('users', new TableIndex({ name: 'ix_users_employee', columnNames: ['employee_id'] }));
    for (const c of ['welcome_email_sent_at', 'welcome_email_status', 'default_module', 'lang', 'user_roles'])
      await q.dropColumn('users', c);
  }
}
