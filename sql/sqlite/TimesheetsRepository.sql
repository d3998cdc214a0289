-- TimesheetsRepository.approvedMinutes
SELECT "t"."employee_id" AS "employee", SUM("t"."minutes") AS "minutes"
  FROM "time_entries" "t"
  WHERE "t"."employee_id" IN (?, ?) AND "t"."status" = 'Approved' AND "t"."date" BETWEEN ? AND ? AND "t"."project_id" = 1
  GROUP BY "t"."employee_id";

-- TimesheetsRepository.overlaps
SELECT 1 AS "row_exists"
  FROM (SELECT 1 AS dummy_column) "dummy_table"
  WHERE EXISTS (SELECT 1
  FROM "time_entries" "t"
  WHERE "t"."employee_id" = 1 AND "t"."date" = ? AND "t"."start_time" < ? AND "t"."end_time" > ? AND "t"."id" <> 2)
  LIMIT 1;
