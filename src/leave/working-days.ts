/** The longest leave request: a year and a day (what a day's count is made of is the calendars' rule, calendars/working-days.ts). */
export const MAX_LEAVE_SPAN_DAYS = 366;
