-- AttendanceExpectations.stretches (a manager)
SELECT "s"."calendar_id" AS "calendar", CASE WHEN CASE WHEN "s"."effective_from" > "e"."joined_date" THEN "s"."effective_from" ELSE "e"."joined_date" END > ? THEN CASE WHEN "s"."effective_from" > "e"."joined_date" THEN "s"."effective_from" ELSE "e"."joined_date" END ELSE ? END AS "first", CASE WHEN "s"."effective_to" IS NULL OR "s"."effective_to" > ? THEN ? ELSE "s"."effective_to" END AS "last", CASE WHEN "e"."termination_date" IS NULL OR "e"."termination_date" > ? THEN NULL ELSE "e"."termination_date" END AS "leaves", COUNT(*) AS "n"
  FROM "employment_segments" "s"
  INNER JOIN "employees" "e" ON "e"."id" = "s"."employee_id"
  WHERE "s"."effective_from" <= ? AND ("s"."effective_to" IS NULL OR "s"."effective_to" >= ?) AND "e"."supervisor_id" = 1 AND "e"."joined_date" <= ? AND ("e"."termination_date" IS NULL OR "e"."termination_date" >= ?)
  GROUP BY "s"."calendar_id", first, last, leaves;

-- AttendanceExpectations.stretches (department scope)
SELECT "s"."calendar_id" AS "calendar", CASE WHEN CASE WHEN "s"."effective_from" > "e"."joined_date" THEN "s"."effective_from" ELSE "e"."joined_date" END > ? THEN CASE WHEN "s"."effective_from" > "e"."joined_date" THEN "s"."effective_from" ELSE "e"."joined_date" END ELSE ? END AS "first", CASE WHEN "s"."effective_to" IS NULL OR "s"."effective_to" > ? THEN ? ELSE "s"."effective_to" END AS "last", CASE WHEN "e"."termination_date" IS NULL OR "e"."termination_date" > ? THEN NULL ELSE "e"."termination_date" END AS "leaves", COUNT(*) AS "n"
  FROM "employment_segments" "s"
  INNER JOIN "employees" "e" ON "e"."id" = "s"."employee_id"
  WHERE "s"."effective_from" <= ? AND ("s"."effective_to" IS NULL OR "s"."effective_to" >= ?) AND "s"."department_id" IN (?, ?) AND "e"."joined_date" <= ? AND ("e"."termination_date" IS NULL OR "e"."termination_date" >= ?)
  GROUP BY "s"."calendar_id", first, last, leaves;
