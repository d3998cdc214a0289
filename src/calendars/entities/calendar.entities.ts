import { Column, Entity, PrimaryGeneratedColumn, ValueTransformer } from 'typeorm';

export const HOLIDAY_KINDS = ['public', 'company'] as const;
export type HolidayKind = (typeof HOLIDAY_KINDS)[number];
/** A full day off ('1') or half a day ('0.5'): what the day loses of its working time. */
export const HOLIDAY_FRACTIONS = ['1', '0.5'] as const;
export type HolidayFraction = (typeof HOLIDAY_FRACTIONS)[number];

/** A work week as stored ("1,2,3,4,5") read back as ISO weekdays. */
export const parseWorkWeek = (stored: string | null): number[] => (stored ? stored.split(',').map(Number) : []);

/** ISO weekdays (1 = Monday … 7 = Sunday) kept as "1,2,3,4,5". */
const WEEK: ValueTransformer = {
  to: (days: number[] | undefined) => (days === undefined ? undefined : [...days].sort((a, b) => a - b).join(',')),
  from: parseWorkWeek,
};

/** A work calendar (migration 1763800000048): where its people work, which weekdays they work, its holidays. */
@Entity('calendars')
export class WorkCalendar {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ type: 'varchar', length: 100 }) name: string;
  /** ISO 3166-1 alpha-2; null only for the default calendar made by the migration (the company's country was never known). */
  @Column({ type: 'varchar', length: 2, nullable: true }) country: string | null;
  /** ISO 3166-2 ("DE-BY"), or null. */
  @Column({ type: 'varchar', length: 10, nullable: true }) subdivision: string | null;
  @Column({ name: 'work_week', type: 'varchar', length: 20, transformer: WEEK }) workWeek: number[];
  @Column({ name: 'is_default', type: 'boolean', default: false }) isDefault: boolean;
}

/** A day off of one calendar, whole or half; one per date and calendar. */
@Entity('holidays')
export class Holiday {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'calendar_id', type: 'integer' }) calendarId: number;
  @Column({ type: 'varchar', length: 100 }) name: string;
  @Column({ type: 'date' }) date: string;
  @Column({ type: 'varchar', length: 3, default: '1' }) fraction: HolidayFraction;
  @Column({ type: 'varchar', length: 10, default: 'public' }) kind: HolidayKind;
}

export const CALENDAR_ENTITIES = [WorkCalendar, Holiday];
