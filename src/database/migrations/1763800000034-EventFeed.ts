import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';

/** Events whose payload names an employee, read 1 000 at a time to fill the new column. */
const BATCH = 1000;

/**
 * Issue 43: the events feed (`GET /events`, docs/api/decisions.md §19) shows each caller the events about the
 * records it may see; `employee_id` is the employee an event is about (its payload's `employee`),
 * filled for the events already there. `updated_since` on the employee list reads an index of
 * `updated_at`.
 */
export class EventFeed1763800000034 implements MigrationInterface {
  name = 'EventFeed1763800000034';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('outbox_events', new TableColumn({ name: 'employee_id', type: 'integer', isNullable: true }));
    let after = 0;
    for (;;) {
      const rows = (await q.query(`SELECT id, payload FROM outbox_events WHERE id > ? ORDER BY id LIMIT ${BATCH}`, [
        after,
      ])) as Array<{
        id: number | string;
        payload: string;
      }>;
      if (!rows.length) break;
      after = Number(rows[rows.length - 1].id);
      const byEmployee = new Map<number, number[]>();
      for (const r of rows) {
        const employee = (JSON.parse(r.payload) as { employee?: unknown }).employee;
        if (typeof employee === 'number') byEmployee.set(employee, [...(byEmployee.get(employee) ?? []), Number(r.id)]);
      }
      for (const [employee, ids] of byEmployee)
        await q.query(`UPDATE outbox_events SET employee_id = ? WHERE id IN (${ids.map(() => '?').join(', ')})`, [
          employee,
          ...ids,
        ]);
    }
    // A Manager's or a Restricted Admin's feed: its employees' events in order.
    await q.createIndex(
      'outbox_events',
      new TableIndex({ name: 'ix_outbox_events_employee', columnNames: ['employee_id', 'seq'] }),
    );
    // GET /employees?updated_since: what changed since an integration's last read.
    await q.query('CREATE INDEX ix_employees_updated_at ON employees (updated_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    const mysql = q.connection.options.type === 'mysql';
    await q.query(`DROP INDEX ix_employees_updated_at${mysql ? ' ON employees' : ''}`);
    await q.dropIndex('outbox_events', 'ix_outbox_events_employee');
    await q.dropColumn('outbox_events', 'employee_id');
  }
}
