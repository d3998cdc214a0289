import { Global, Injectable, Module } from '@nestjs/common';
import { knownTimeZone, localDate } from './zones';

/** Reads the company's time zone (the Time Zone setting): a name, possibly one Intl does not know. */
export type ZoneReader = () => Promise<string | null | undefined>;

/**
 * The one clock of business dates (docs/ARCHITECTURE.md, "Today"): "this instant" and the company's
 * day, the calendar day on the clocks of the Time Zone setting (UTC while it is unset or unknown).
 * Every business date a job or a rule takes as "today" (the history job, the leave accrual, balances,
 * reminders, escalation, bank files, insights' ranges) comes from here, never from a UTC slice of
 * `new Date()`. Record stamps (created_at, an audit entry's time) are the real instant and do not
 * read it.
 *
 * The settings module gives it the zone at start (`readZoneWith`); tests and the demo may move it
 * (`moveTo`), which moves every one of those dates together.
 */
@Injectable()
export class CompanyClock {
  private zoneReader: ZoneReader = async () => null;
  private offsetMs = 0;

  /** How the zone is read (the settings module, at start; its cache keeps this cheap). */
  readZoneWith(reader: ZoneReader): void {
    this.zoneReader = reader;
  }

  /** This instant, as the company's clock has it. */
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  /** The company's time zone: the setting when Intl knows it, else UTC. */
  async zone(): Promise<string> {
    return knownTimeZone(await this.zoneReader()) ?? 'UTC';
  }

  /** The company's day ('YYYY-MM-DD') at `at` (now by default). */
  async today(at: Date = this.now()): Promise<string> {
    return localDate(at, await this.zone());
  }

  /** The company's day of each instant, the zone read once. */
  async daysOf(instants: readonly Date[]): Promise<string[]> {
    const zone = await this.zone();
    return instants.map((at) => localDate(at, zone));
  }

  /** Moves the clock so that now() is `at` from this moment on (null: back to the real time). */
  moveTo(at: Date | null): void {
    this.offsetMs = at ? at.getTime() - Date.now() : 0;
  }
}

/** Global: every module reads the one clock. */
@Global()
@Module({ providers: [CompanyClock], exports: [CompanyClock] })
export class ClockModule {}
