-- InsightsRepository.attendanceHoursBy (dayOfMonth, department scope)
SELECT CAST(strftime('%d', r.day) AS INTEGER) AS "k", SUM(r.seconds) AS "amount"
  FROM "attendance_days" "r"
  WHERE r.day <= ? AND r.day >= ? AND r.department_id IN (?, ?)
  GROUP BY CAST(strftime('%d', r.day) AS INTEGER);

-- InsightsRepository.attendanceHoursBy (weekday, a manager)
SELECT ((CAST(strftime('%w', "a"."in_time") AS INTEGER) + 6) % 7) AS "k", SUM("a"."duration_seconds") AS "amount"
  FROM "attendance" "a"
  INNER JOIN "employees" "e" ON "e"."id" = "a"."employee_id"
  WHERE "a"."in_time" < ? AND "a"."in_time" >= ? AND "e"."supervisor_id" = 1
  GROUP BY ((CAST(strftime('%w', "a"."in_time") AS INTEGER) + 6) % 7);

-- InsightsRepository.attendanceTotals (a manager)
SELECT COUNT(*) AS "records", COUNT(DISTINCT "a"."employee_id") AS "employees", SUM("a"."duration_seconds") AS "seconds", COUNT("a"."out_time") AS "completed", SUM(CASE WHEN "a"."work_from_home" = 1 THEN 1 ELSE 0 END) AS "wfh"
  FROM "attendance" "a"
  INNER JOIN "employees" "e" ON "e"."id" = "a"."employee_id"
  WHERE "a"."in_time" < ? AND "a"."in_time" >= ? AND "e"."supervisor_id" = 1;

-- InsightsRepository.attendanceTotals (department scope)
SELECT COUNT(DISTINCT x.employee_id) AS "n"
  FROM (SELECT "a"."employee_id" AS "employee_id", MIN("a"."in_time") AS "first"
  FROM "attendance" "a"
  WHERE "a"."in_time" < ? AND "a"."in_time" >= ?
  GROUP BY "a"."employee_id") "x"
  INNER JOIN "employees" "e" ON "e"."id" = x.employee_id
  WHERE "e"."department_id" IN (?, ?);
SELECT SUM(r.records) AS "records", SUM(r.seconds) AS "seconds", SUM(r.completed) AS "completed", SUM(r.wfh) AS "wfh"
  FROM "attendance_days" "r"
  WHERE r.day <= ? AND r.day >= ? AND r.department_id IN (?, ?);

-- InsightsRepository.departmentNames
SELECT "dep"."id" AS "id", "dep"."name" AS "name"
  FROM "departments" "dep"
  WHERE "dep"."id" IN (?, ?);

-- InsightsRepository.leaveBy (dayOfMonth, an employee)
SELECT CAST(strftime('%d', "d"."date") AS INTEGER) AS "k", SUM(CASE WHEN "d"."first_date" >= ? THEN "d"."first_of_dom" ELSE 0 END) + COUNT(DISTINCT CASE WHEN "d"."first_date" < ? THEN "d"."request_id" END) AS "requests", SUM("d"."days") AS "days"
  FROM "leave_days" "d"
  INNER JOIN "employees" "e" ON "e"."id" = "d"."employee_id"
  WHERE "e"."id" = 1 AND "d"."date" <= ? AND "d"."date" >= ? AND "d"."status" = ?
  GROUP BY CAST(strftime('%d', "d"."date") AS INTEGER);

-- InsightsRepository.leaveBy (department, a manager)
SELECT COALESCE("e"."department_id", 0) AS "k", SUM(CASE WHEN "d"."first_date" >= ? THEN CASE WHEN "d"."date" = "d"."first_date" THEN 1 ELSE 0 END ELSE 0 END) + COUNT(DISTINCT CASE WHEN "d"."first_date" < ? THEN "d"."request_id" END) AS "requests", SUM("d"."days") AS "days"
  FROM "leave_days" "d"
  INNER JOIN "employees" "e" ON "e"."id" = "d"."employee_id"
  WHERE "e"."supervisor_id" = 1 AND "d"."date" <= ? AND "d"."date" >= ? AND "d"."status" = ?
  GROUP BY COALESCE("e"."department_id", 0);

-- InsightsRepository.leaveBy (status, department scope)
SELECT "l"."id" AS "id"
  FROM "leave_requests" "l"
  WHERE "l"."date_start" >= ? AND "l"."date_start" < ? AND "l"."date_end" >= ?;
SELECT r.status AS "k", SUM(r.requests) AS "requests", SUM(r.days) AS "days"
  FROM "leave_day_sums" "r"
  WHERE r.day <= ? AND r.day >= ? AND r.department_id IN (?, ?)
  GROUP BY r.status;

-- InsightsRepository.leaveBy (weekday, everyone)
SELECT "l"."id" AS "id"
  FROM "leave_requests" "l"
  WHERE "l"."date_start" >= ? AND "l"."date_start" < ? AND "l"."date_end" >= ?;
SELECT ((CAST(strftime('%w', r.day) AS INTEGER) + 6) % 7) AS "k", SUM(r.weekday_requests) AS "requests", SUM(r.days) AS "days"
  FROM "leave_day_sums" "r"
  WHERE r.day <= ? AND r.day >= ? AND r.status = ?
  GROUP BY ((CAST(strftime('%w', r.day) AS INTEGER) + 6) % 7);

-- InsightsRepository.leaveTypes
SELECT "t"."id" AS "id", "t"."name" AS "name"
  FROM "leave_types" "t"
  ORDER BY "t"."name" ASC;

-- InsightsRepository.timeEntryTotals (an employee)
SELECT COUNT(*) AS "entries", COUNT(DISTINCT "t"."employee_id") AS "employees", SUM("t"."minutes") AS "minutes"
  FROM "time_entries" "t"
  INNER JOIN "employees" "e" ON "e"."id" = "t"."employee_id"
  WHERE "t"."date" <= ? AND "t"."status" IN (?, ?, ?) AND "t"."date" >= ? AND "e"."id" = 1;

-- InsightsRepository.timeEntryTotals (department scope)
SELECT COUNT(DISTINCT x.employee_id) AS "n"
  FROM (SELECT "t"."employee_id" AS "employee_id", MIN("t"."date") AS "first"
  FROM "time_entries" "t"
  WHERE "t"."date" <= ? AND "t"."status" IN (?, ?, ?) AND "t"."date" >= ?
  GROUP BY "t"."employee_id", "t"."status") "x"
  INNER JOIN "employees" "e" ON "e"."id" = x.employee_id
  WHERE "e"."department_id" IN (?, ?);
SELECT SUM(r.entries) AS "entries", SUM(r.minutes) AS "minutes"
  FROM "time_entry_days" "r"
  WHERE r.day <= ? AND r.day >= ? AND r.department_id IN (?, ?);

-- InsightsRepository.timesheetHoursBy (dayOfMonth, department scope)
SELECT CAST(strftime('%d', r.day) AS INTEGER) AS "k", SUM(r.minutes) AS "amount"
  FROM "time_entry_days" "r"
  WHERE r.day <= ? AND r.day >= ? AND r.department_id IN (?, ?)
  GROUP BY CAST(strftime('%d', r.day) AS INTEGER);

-- InsightsRepository.timesheetHoursBy (weekday, a manager)
SELECT ((CAST(strftime('%w', "t"."date") AS INTEGER) + 6) % 7) AS "k", SUM("t"."minutes") AS "amount"
  FROM "time_entries" "t"
  INNER JOIN "employees" "e" ON "e"."id" = "t"."employee_id"
  WHERE "t"."date" <= ? AND "t"."status" IN (?, ?, ?) AND "t"."date" >= ? AND "e"."supervisor_id" = 1
  GROUP BY ((CAST(strftime('%w', "t"."date") AS INTEGER) + 6) % 7);
