import { addDays, daysBetween } from '../common/time/days';
import { documentStatus, dueMark, EXPIRED_MARK } from './document-status';

const type = { notifyDaysBefore: [30, 7, 1] };

describe('document status and reminders', () => {
  it('counts days between calendar days across months and leap years', () => {
    expect(daysBetween('2028-02-28', '2028-03-01')).toBe(2);
    expect(daysBetween('2026-12-31', '2026-12-01')).toBe(-30);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('is No expiry without valid_until, Valid before the first reminder, Expiring from it, Expired after the last valid day', () => {
    expect(documentStatus(null, type, '2026-11-25')).toBe('No expiry');
    expect(documentStatus('2026-12-26', type, '2026-11-25')).toBe('Valid');
    expect(documentStatus('2026-12-25', type, '2026-11-25')).toBe('Expiring');
    expect(documentStatus('2026-11-25', type, '2026-11-25')).toBe('Expiring');
    expect(documentStatus('2026-11-24', type, '2026-11-25')).toBe('Expired');
    expect(documentStatus('2026-11-26', { notifyDaysBefore: [] }, '2026-11-25')).toBe('Valid');
    expect(documentStatus('2026-11-25', { notifyDaysBefore: [] }, '2026-11-25')).toBe('Expiring');
  });

  it('makes the nearest reminder reached: 30, then 7, then 1 days before, then the expiry', () => {
    expect(dueMark('2026-12-26', type, '2026-11-25')).toBeNull();
    expect(dueMark('2026-12-25', type, '2026-11-25')).toBe(30);
    expect(dueMark('2026-12-02', type, '2026-11-25')).toBe(7);
    // A job that missed the 7-day mark still makes it, not the 30-day one.
    expect(dueMark('2026-11-30', type, '2026-11-25')).toBe(7);
    expect(dueMark('2026-11-26', type, '2026-11-25')).toBe(1);
    expect(dueMark('2026-11-25', type, '2026-11-25')).toBe(1);
    expect(dueMark('2026-11-25', { notifyDaysBefore: [0] }, '2026-11-25')).toBe(0);
    expect(dueMark('2026-11-24', type, '2026-11-25')).toBe(EXPIRED_MARK);
    expect(dueMark(null, type, '2026-11-25')).toBeNull();
  });
});
