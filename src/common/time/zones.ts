/**
 * One formatter per time zone: building an Intl.DateTimeFormat costs far more than formatting with
 * one, and the dated writes ask for today's date once per row of an import. Bounded, since a user's
 * preference may name any zone: cleared past MAX_ZONES names.
 */
const MAX_ZONES = 1000;
const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatterOf(name: string): Intl.DateTimeFormat | null {
  let f = formatters.get(name);
  if (f !== undefined) return f;
  try {
    f = new Intl.DateTimeFormat('en-CA', { timeZone: name, year: 'numeric', month: '2-digit', day: '2-digit' });
  } catch {
    f = null;
  }
  if (formatters.size >= MAX_ZONES) formatters.clear();
  formatters.set(name, f);
  return f;
}

/** The name when it is a time zone Intl knows (as given: Asia/Kolkata stays so), else null. */
export function knownTimeZone(name: string | null | undefined): string | null {
  if (!name) return null;
  return formatterOf(name) ? name : null;
}

/** 'YYYY-MM-DD' of `now` on the clocks of `timeZone`. */
export function localDate(now: Date, timeZone: string): string {
  const f = formatterOf(timeZone);
  if (!f) throw new RangeError(`Invalid time zone specified: ${timeZone}`);
  return f.format(now);
}
