import { datesProblem, newEmployee, wholeYears } from './employee-rules';

describe('employee rules shared by the API and the import', () => {
  it('a new employee is Active unless given; a Terminated one without a date left today', () => {
    expect(newEmployee({ firstName: 'A' }, '2026-12-02')).toEqual({ status: 'Active', firstName: 'A' });
    expect(newEmployee({ status: 'Terminated' }, '2026-12-02')).toEqual({ status: 'Terminated', terminationDate: '2026-12-02' });
    expect(newEmployee({ status: 'Terminated', terminationDate: '2025-01-31' }, '2026-12-02').terminationDate).toBe('2025-01-31');
  });

  it('does not leave before it joined; either date missing is no problem', () => {
    expect(datesProblem('2025-02-01', '2025-01-31')).toEqual({
      field: 'termination_date',
      message: 'must not be before joined_date',
    });
    expect(datesProblem('2025-02-01', '2025-02-01')).toBeNull();
    expect(datesProblem(null, '2025-01-31')).toBeNull();
    expect(datesProblem('2025-02-01', undefined)).toBeNull();
  });

  it('counts whole years to a day: a birthday not yet reached this year does not count', () => {
    expect(wholeYears('1990-06-15', '2025-06-14')).toBe(34);
    expect(wholeYears('1990-06-15', '2025-06-15')).toBe(35);
    expect(wholeYears(null, '2025-06-15')).toBeNull();
  });
});
