import { MigrationInterface, QueryRunner, Table, TableColumn, TableForeignKey, TableIndex } from 'typeorm';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** The Work Week setting ("Mon,Tue,...") as ISO weekdays ("1,2,..."); Monday to Friday when unset or unreadable. */
export function isoWorkWeek(setting: string | undefined): string {
  const days = (setting ?? '')
    .split(',')
    .map((d) => WEEKDAYS.indexOf(d.trim()) + 1)
    .filter((d) => d > 0);
  return days.length ? [...new Set(days)].sort().join(',') : '1,2,3,4,5';
}

/**
 * Issue 65 (docs/api/calendars.md): work calendars. `calendars` holds each calendar's country,
 * subdivision and work week; one is the default, made here from the Work Week setting (whose value
 * it now keeps: the setting reads and writes it) with no country, since the service never knew the
 * company's. Every holiday belongs to a calendar (today's to the default), is a full or half day
 * (`fraction` '1' or '0.5') and public or the company's own (`kind`); one per date and calendar.
 */
export class WorkCalendars1763800000048 implements MigrationInterface {
  name = 'WorkCalendars1763800000048';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'calendars',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'country', type: 'varchar', length: '2', isNullable: true },
          { name: 'subdivision', type: 'varchar', length: '10', isNullable: true },
          { name: 'work_week', type: 'varchar', length: '20', default: "'1,2,3,4,5'" },
          { name: 'is_default', type: 'boolean', default: false },
        ],
        indices: [new TableIndex({ name: 'uq_calendars_name', columnNames: ['name'], isUnique: true })],
      }),
    );
    const setting = (await q.query("SELECT value FROM settings WHERE name = 'Work Week'")) as Array<{ value: string }>;
    await q.query('INSERT INTO calendars (name, country, subdivision, work_week, is_default) VALUES (?, NULL, NULL, ?, ?)', [
      'Default',
      isoWorkWeek(setting[0]?.value),
      true,
    ]);
    const [{ id }] = (await q.query('SELECT id FROM calendars WHERE is_default = ?', [true])) as Array<{ id: number }>;
    await q.query("DELETE FROM settings WHERE name = 'Work Week'");

    await q.dropIndex('holidays', 'uq_holidays_date');
    await q.addColumns('holidays', [
      new TableColumn({ name: 'calendar_id', type: 'integer', isNullable: true }),
      new TableColumn({ name: 'fraction', type: 'varchar', length: '3', default: "'1'" }),
      new TableColumn({ name: 'kind', type: 'varchar', length: '10', default: "'public'" }),
    ]);
    await q.query('UPDATE holidays SET calendar_id = ?', [id]);
    await q.changeColumn('holidays', 'calendar_id', new TableColumn({ name: 'calendar_id', type: 'integer' }));
    await q.createIndex(
      'holidays',
      new TableIndex({ name: 'uq_holidays_calendar_date', columnNames: ['calendar_id', 'date'], isUnique: true }),
    );
    await q.createForeignKey(
      'holidays',
      new TableForeignKey({
        name: 'fk_holidays_calendar',
        columnNames: ['calendar_id'],
        referencedTableName: 'calendars',
        referencedColumnNames: ['id'],
        onDelete: 'CASCADE',
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    const [def] = (await q.query('SELECT id, work_week FROM calendars WHERE is_default = ?', [true])) as Array<{
      id: number;
      work_week: string;
    }>;
    // The seed-era shape keeps one holiday per date: the default calendar's.
    await q.query('DELETE FROM holidays WHERE calendar_id <> ?', [def.id]);
    await q.dropForeignKey('holidays', 'fk_holidays_calendar');
    await q.dropIndex('holidays', 'uq_holidays_calendar_date');
    await q.dropColumns('holidays', ['calendar_id', 'fraction', 'kind']);
    await q.createIndex('holidays', new TableIndex({ name: 'uq_holidays_date', columnNames: ['date'], isUnique: true }));
    const week = def.work_week
      .split(',')
      .map((d) => WEEKDAYS[Number(d) - 1])
      .join(',');
    await q.query('INSERT INTO settings (name, value, updated_at) VALUES (?, ?, CURRENT_TIMESTAMP)', ['Work Week', week]);
    await q.dropTable('calendars');
  }
}
