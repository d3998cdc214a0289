import { knownTimeZone, localDate } from './zones';

describe('time zones', () => {
  afterEach(() => jest.restoreAllMocks());

  it('knows IANA names as given and refuses the rest', () => {
    expect(knownTimeZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(knownTimeZone('Mars/Olympus')).toBeNull();
    expect(knownTimeZone('')).toBeNull();
    expect(knownTimeZone(null)).toBeNull();
  });

  it('gives the date on the clocks of the zone', () => {
    const now = new Date('2026-06-30T20:00:00Z');
    expect(localDate(now, 'UTC')).toBe('2026-06-30');
    expect(localDate(now, 'Asia/Kolkata')).toBe('2026-07-01');
    expect(localDate(now, 'America/Los_Angeles')).toBe('2026-06-30');
    expect(() => localDate(now, 'Mars/Olympus')).toThrow(RangeError);
  });

  it('builds one formatter per zone, however often it is asked (a dated import asks once per row)', () => {
    const built = jest.spyOn(Intl, 'DateTimeFormat');
    for (let i = 0; i < 100; i++) {
      expect(knownTimeZone('Pacific/Chatham')).toBe('Pacific/Chatham');
      expect(localDate(new Date('2026-01-01T00:00:00Z'), 'Pacific/Chatham')).toBe('2026-01-01');
      expect(knownTimeZone('Nowhere/Zone')).toBeNull();
    }
    expect(built).toHaveBeenCalledTimes(2);
  });
});
