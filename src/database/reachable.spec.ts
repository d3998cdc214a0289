import { setupProblem } from './reachable';

describe('a MariaDB that refuses as configured, in one line', () => {
  const url = 'mysql://hr:secret@db.internal:3307/hr_prod';
  it('names the database to create, or the user to grant, and leaves other failures to the retries', () => {
    expect(setupProblem(url, { code: 'ER_BAD_DB_ERROR' })).toBe(
      'DATABASE_URL names the database "hr_prod", which does not exist on db.internal:3307: create it (CREATE DATABASE `hr_prod` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci) or fix DATABASE_URL (docs/operations.md, "MariaDB")',
    );
    expect(setupProblem(url, { code: 'ER_ACCESS_DENIED_ERROR' })).toMatch(
      /^db\.internal:3307 refused the user "hr" \(access denied\)/,
    );
    expect(setupProblem(url, { code: 'ER_DBACCESS_DENIED_ERROR' })).toMatch(/GRANT ALL ON `hr_prod`\.\* TO 'hr'@'%'/);
    expect(setupProblem(url, { code: 'ECONNREFUSED' })).toBeNull();
    expect(setupProblem(url, new Error('x'))).toBeNull();
    // The password is never in the line.
    expect(setupProblem(url, { code: 'ER_ACCESS_DENIED_ERROR' })).not.toContain('secret');
  });
});
