-- AttendanceRepository.closedRecords
SELECT "a"."id" AS "id", "a"."employee_id" AS "employee", DATE("a"."in_time") AS "day", "a"."duration_seconds" AS "seconds"
  FROM "attendance" "a"
  WHERE "a"."employee_id" IN (?, ?) AND "a"."in_time" >= ? AND "a"."in_time" < ? AND "a"."duration_seconds" IS NOT NULL
  ORDER BY "a"."id" ASC;

-- AttendanceRepository.endsAfter
SELECT 1 AS "row_exists"
  FROM (SELECT 1 AS dummy_column) "dummy_table"
  WHERE EXISTS (SELECT 1
  FROM "attendance" "a"
  WHERE "a"."employee_id" = 1 AND "a"."out_time" > ?)
  LIMIT 1;

-- AttendanceRepository.overlaps
SELECT 1 AS "row_exists"
  FROM (SELECT 1 AS dummy_column) "dummy_table"
  WHERE EXISTS (SELECT 1
  FROM "attendance" "a"
  WHERE "a"."employee_id" = 1 AND ("a"."out_time" IS NULL OR "a"."out_time" > ?) AND "a"."in_time" < ? AND "a"."id" <> 2)
  LIMIT 1;

-- AttendanceRepository.summary
SELECT COUNT(*) AS "records", COUNT("a"."duration_seconds") AS "closed", COALESCE(SUM("a"."duration_seconds"), 0) AS "seconds", COALESCE(SUM(CASE WHEN "a"."in_time" >= ? THEN 1 ELSE 0 END), 0) AS "thisMonth", COALESCE(SUM(CASE WHEN "a"."work_from_home" = 1 THEN 1 ELSE 0 END), 0) AS "wfh"
  FROM "attendance" "a"
  WHERE "a"."employee_id" = 1;
