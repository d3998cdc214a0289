/** The command line's help (hr --help). */
export const USAGE = `Usage: hr <command> [options]

Commands:
  db:migrate                                   apply pending database migrations
  db:backup FILE                               SQLite: a consistent copy of the database into FILE (a new file)
                                               while the API serves; MariaDB: prints how to use mariadb-dump
  db:restore FILE                              SQLite: put a backup in the database's place (the API and workers
                                               stopped); the replaced database is kept as <db>.before-restore-<time>
  users:create-admin --username U --email E [--password P]
                                               create an Admin user; without --password (or with
                                               --password -) it is read from standard input, unechoed
  users:create --username U --email E [--password P] --level L [--employee ID] [--departments 1,2]
                                               create a user of any level (Admin, "Restricted Admin",
                                               Manager, Employee), linked to an employee id; a Restricted
                                               Admin's departments (ids) are its scope
  users:reset-password --username U            print a new temporary password (to hand over when no
                                               SMTP_URL is set); the user must change it, its tokens end
  tokens:issue --username U [--ttl 1h]         print a new access token for scripts
  scim-tokens:issue --name N                   print a new SCIM token (for /scim/v2: an identity provider's provisioning)
  maintenance:purge                            delete expired tokens and idempotency keys, audit log entries past
                                               "Audit Log Retention Days", webhook events dispatched over 7 days
                                               ago, delivery attempts over 30 days old and the files of dry-run
                                               imports not committed within 7 days (run daily)
  maintenance:rebuild-insights                 recompute the insights rollups after loading attendance, time entries or leave around the API
  leave:accrue [--history all] [--employees 1,2]
                                               write what the leave policies owe and the ledger lacks, as the daily job
                                               does for the current and the previous leave period; --history all covers
                                               every leave period begun (after a policy or assignment changed far back)
  settings:get <name>                          print a setting's value
  settings:set <name> <value>                  change a setting, e.g. settings:set "Enable Rest Api" Yes
  demo                                         serve the API on ./data/demo.sqlite with a demo company

Run it as ./bin/hr (the Node.js npm install brings). Configuration comes from the environment
(DATABASE_URL, REDIS_URL, ...; see docs/operations.md).`;
