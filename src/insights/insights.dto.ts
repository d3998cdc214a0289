import { ApiInt } from '../common/openapi/api-int';
import { ResponseOptional } from '../common/openapi/response-optional';
import { ApiProperty } from '@nestjs/swagger';

export const INSIGHT_PERIODS = ['6months', '1year', '2years', '3years', 'all'] as const;
export type InsightPeriod = (typeof INSIGHT_PERIODS)[number];
/** The endpoints, /insights/<name>/{period}. */
export const INSIGHT_NAMES = [
  'leave-summary',
  'leave-monthly-pattern',
  'leave-weekly-pattern',
  'leave-type-distribution',
  'leave-by-department',
  'attendance-summary',
  'attendance-monthly-pattern',
  'attendance-weekly-pattern',
  'timesheet-summary',
  'timesheet-monthly-pattern',
  'timesheet-weekly-pattern',
] as const;
export const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

export class LeaveStatusSummaryDto {
  @ApiProperty({ enum: ['Pending', 'Approved', 'Rejected', 'Cancelled'] }) status: string;
  @ApiInt({ description: 'requests with at least one leave day in the period' }) requests: number;
  @ApiProperty({ example: 12.5, description: 'their working days inside the period' }) days: number;
}

export class LeaveTypeShareDto {
  @ApiInt() leave_type: number;
  @ApiProperty({ example: 'Annual' }) name: string;
  @ApiInt() requests: number;
  @ApiProperty() days: number;
}

export class LeaveDepartmentShareDto {
  @ApiInt() department: number;
  @ApiProperty({ example: 'Engineering' }) name: string;
  @ApiInt() requests: number;
  @ApiProperty() days: number;
}

export class DayOfMonthValueDto {
  @ApiInt({ minimum: 1, maximum: 31 }) day: number;
  @ApiProperty({ description: 'leave: approved requests taking that day; attendance and timesheets: hours' }) value: number;
  @ResponseOptional()
  @ApiProperty({ required: false, description: 'leave only: the approved leave days on that day' })
  days?: number;
  @ResponseOptional()
  @ApiProperty({
    required: false,
    description: 'attendance only: the working days owed on that day of the month in the period (see the summary)',
  })
  expected_days?: number;
}

export class WeekdayValueDto {
  @ApiProperty({ enum: WEEKDAY_NAMES }) day: string;
  @ApiProperty({ description: 'leave: approved requests taking that weekday; attendance and timesheets: hours' }) value: number;
  @ResponseOptional()
  @ApiProperty({ required: false, description: 'leave only: the approved leave days on that weekday' })
  days?: number;
  @ResponseOptional()
  @ApiProperty({
    required: false,
    description: 'attendance only: the working days owed on that weekday in the period (see the summary)',
  })
  expected_days?: number;
}

export class AttendanceInsightDto {
  @ApiInt() records: number;
  @ApiInt() employees: number;
  @ApiProperty({ example: 1234.5 }) total_hours: number;
  @ApiProperty({ example: 7.9, description: 'total_hours per completed (punched-out) record' }) average_hours: number;
  @ApiInt() work_from_home_records: number;
  @ApiProperty({
    example: 1302.5,
    description:
      'the working days the employees owed in the period: each day by the calendar each had that day (a half-day holiday 0.5), while employed (joined date to termination date)',
  })
  expected_days: number;
}

export class TimesheetInsightDto {
  @ApiInt() entries: number;
  @ApiInt() employees: number;
  @ApiProperty() total_hours: number;
  @ApiProperty({ description: 'total_hours per entry' }) average_hours: number;
}

export class LeaveLiabilityDto {
  @ApiInt() leave_type: number;
  @ApiProperty({ example: 'Annual' }) leave_type_name: string;
  @ApiInt({ type: Number, nullable: true, description: 'null: employees without a department' }) department: number | null;
  @ApiProperty({ type: String, nullable: true, example: 'Engineering' }) department_name: string | null;
  @ApiInt({ description: 'employees with a positive balance of the type' }) employees: number;
  @ApiProperty({ example: 112.5, description: 'the sum of their available days (negative balances are not netted)' })
  days: number;
}

export class HeadcountDto {
  @ApiProperty({ example: '2026-06', description: 'the month' }) month: string;
  @ApiProperty({ type: String, format: 'date', description: "the month's last day, or today for the current month" }) day: string;
  @ApiInt({ nullable: true, description: 'null: employees without a department' }) department: number | null;
  @ApiProperty({ type: String, nullable: true, example: 'Engineering' }) department_name: string | null;
  @ApiInt({ description: 'employees employed that day, in the department of that day' }) headcount: number;
}

export class TurnoverDto {
  @ApiInt({ nullable: true, description: 'null: employees without a department; the department on the day they left' })
  department: number | null;
  @ApiProperty({ type: String, nullable: true, example: 'Engineering' }) department_name: string | null;
  @ApiInt({ description: 'employees whose termination date falls in the period' }) leavers: number;
  @ApiProperty({ example: 41.5, description: "the mean of the headcounts at each month's end of the period" })
  average_headcount: number;
  @ApiProperty({ type: Number, nullable: true, example: 0.0482, description: 'leavers ÷ average headcount; null when it is 0' })
  turnover: number | null;
}
