/** The name when it is a time zone Intl knows (as given: Asia/Kolkata stays so), else null. */
export function knownTimeZone(name: string | null | undefined): string | null {
  if (!name) return null;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return name;
  } catch {
    return null;
  }
}

/** 'YYYY-MM-DD' of `now` on the clocks of `timeZone`. */
export function localDate(now: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}
