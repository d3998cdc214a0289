import type Holidays from 'date-holidays';
import { HolidayFraction } from './entities/calendar.entities';

/**
 * The public holidays of the npm package `date-holidays` (about 200 countries with their regions,
 * maintained; docs/api/calendars.md): the one place the service reads it. Loaded at its first use
 * (0.1 s), not when the application's modules load.
 */
let loaded: Promise<typeof Holidays> | null = null;
const load = () => (loaded ??= import('date-holidays').then((m) => m.default));
let all: Holidays | null = null;
const dataset = async () => (all ??= new (await load())());

/** What is wrong with a calendar's place for the dataset, as [field, message], or null. */
export async function placeProblem(country: string, subdivision: string | null): Promise<[string, string] | null> {
  const countries = (await dataset()).getCountries();
  if (!Object.hasOwn(countries, country)) return ['country', `the holiday dataset knows no country ${country}`];
  if (subdivision === null) return null;
  const [prefix, code] = subdivision.split('-');
  if (prefix !== country) return ['subdivision', `must be a subdivision of ${country} (${country}-...)`];
  const states = (await dataset()).getStates(country) ?? {};
  if (!Object.hasOwn(states, code)) {
    const known = Object.keys(states).map((s) => `${country}-${s}`);
    return [
      'subdivision',
      known.length ? `must be one of ${known.join(', ')}` : `${country} has no subdivisions in the holiday dataset`,
    ];
  }
  return null;
}

export interface DatasetHoliday {
  date: string;
  name: string;
  fraction: HolidayFraction;
}

/**
 * The public holidays of `year` for the country and subdivision, by date (substitute days and
 * observed dates as the dataset gives them; observances, optional days and school holidays left
 * out). One beginning at noon or later is half a day; two on one date are one, named by both.
 */
export async function publicHolidays(country: string, subdivision: string | null, year: number): Promise<DatasetHoliday[]> {
  const Dataset = await load();
  const region = subdivision ? new Dataset(country, subdivision.split('-')[1]) : new Dataset(country);
  const byDate = new Map<string, DatasetHoliday>();
  for (const h of region.getHolidays(year)) {
    if (h.type !== 'public') continue;
    const [date, time] = h.date.split(' ');
    const fraction: HolidayFraction = Number((time ?? '00').slice(0, 2)) >= 12 ? '0.5' : '1';
    const seen = byDate.get(date);
    if (!seen) byDate.set(date, { date, name: h.name.slice(0, 100), fraction });
    else
      byDate.set(date, { date, name: `${seen.name}, ${h.name}`.slice(0, 100), fraction: seen.fraction === '1' ? '1' : fraction });
  }
  return [...byDate.values()].sort((a, b) => a.date.localeCompare(b.date));
}
