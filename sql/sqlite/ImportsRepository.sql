-- ImportsRepository.deleteErrors
DELETE
  FROM "import_errors"
  WHERE "import_id" = 1;

-- ImportsRepository.insertErrors
INSERT INTO "import_errors"("id", "import_id", "row", "column", "field", "message")
  VALUES (NULL, 1, 1, ?, ?, ?);

-- ImportsRepository.staleDryRuns
SELECT "ImportRecord"."id" AS "ImportRecord_id", "ImportRecord"."kind" AS "ImportRecord_kind", "ImportRecord"."file_name" AS "ImportRecord_file_name", "ImportRecord"."format" AS "ImportRecord_format", "ImportRecord"."file_key" AS "ImportRecord_file_key", "ImportRecord"."file_bytes" AS "ImportRecord_file_bytes", "ImportRecord"."dry_run" AS "ImportRecord_dry_run", "ImportRecord"."mode" AS "ImportRecord_mode", "ImportRecord"."status" AS "ImportRecord_status", "ImportRecord"."payroll_id" AS "ImportRecord_payroll_id", "ImportRecord"."rows_total" AS "ImportRecord_rows_total", "ImportRecord"."rows_valid" AS "ImportRecord_rows_valid", "ImportRecord"."rows_failed" AS "ImportRecord_rows_failed", "ImportRecord"."rows_done" AS "ImportRecord_rows_done", "ImportRecord"."progress" AS "ImportRecord_progress", "ImportRecord"."error" AS "ImportRecord_error", "ImportRecord"."claim" AS "ImportRecord_claim", "ImportRecord"."restarts" AS "ImportRecord_restarts", "ImportRecord"."created_by" AS "ImportRecord_created_by", "ImportRecord"."created_at" AS "ImportRecord_created_at", "ImportRecord"."updated_at" AS "ImportRecord_updated_at", "ImportRecord"."finished_at" AS "ImportRecord_finished_at"
  FROM "imports" "ImportRecord"
  WHERE (("ImportRecord"."status" = ?) AND (NOT("ImportRecord"."file_key" IS NULL)) AND ("ImportRecord"."finished_at" < ?))
  ORDER BY "ImportRecord"."id" ASC
  LIMIT 1000;

-- ImportsRepository.stalled
SELECT "ImportRecord"."id" AS "ImportRecord_id", "ImportRecord"."kind" AS "ImportRecord_kind", "ImportRecord"."file_name" AS "ImportRecord_file_name", "ImportRecord"."format" AS "ImportRecord_format", "ImportRecord"."file_key" AS "ImportRecord_file_key", "ImportRecord"."file_bytes" AS "ImportRecord_file_bytes", "ImportRecord"."dry_run" AS "ImportRecord_dry_run", "ImportRecord"."mode" AS "ImportRecord_mode", "ImportRecord"."status" AS "ImportRecord_status", "ImportRecord"."payroll_id" AS "ImportRecord_payroll_id", "ImportRecord"."rows_total" AS "ImportRecord_rows_total", "ImportRecord"."rows_valid" AS "ImportRecord_rows_valid", "ImportRecord"."rows_failed" AS "ImportRecord_rows_failed", "ImportRecord"."rows_done" AS "ImportRecord_rows_done", "ImportRecord"."progress" AS "ImportRecord_progress", "ImportRecord"."error" AS "ImportRecord_error", "ImportRecord"."claim" AS "ImportRecord_claim", "ImportRecord"."restarts" AS "ImportRecord_restarts", "ImportRecord"."created_by" AS "ImportRecord_created_by", "ImportRecord"."created_at" AS "ImportRecord_created_at", "ImportRecord"."updated_at" AS "ImportRecord_updated_at", "ImportRecord"."finished_at" AS "ImportRecord_finished_at"
  FROM "imports" "ImportRecord"
  WHERE (("ImportRecord"."status" IN (?, ?, ?)) AND ("ImportRecord"."updated_at" < ?))
  ORDER BY "ImportRecord"."id" ASC
  LIMIT 100;
