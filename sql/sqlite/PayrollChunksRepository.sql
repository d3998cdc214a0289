-- PayrollChunksRepository.create
INSERT INTO "payroll_chunks"("payroll_id", "revision", "chunk", "employees", "size", "column_set_id", "table_versions", "status", "errors")
  VALUES (1, 2, 0, ?, 2, 4, ?, ?, 0), (1, 2, 1, ?, 1, 4, ?, ?, 0);

-- PayrollChunksRepository.dropOlder
BEGIN IMMEDIATE TRANSACTION;
BEGIN IMMEDIATE TRANSACTION;
COMMIT;
COMMIT;
DELETE
  FROM "payroll_cells"
  WHERE "payroll_id" = ? AND "employee_id" >= ? AND "employee_id" < ? AND "revision" < ?;
DELETE
  FROM "payroll_chunks"
  WHERE ("payroll_id" = 1 AND "revision" < 2);
DELETE
  FROM "payroll_errors"
  WHERE ("payroll_id" = 1 AND "revision" < 2);
DELETE
  FROM "payroll_run_inputs"
  WHERE ("payroll_id" = 1 AND "revision" < 2);
SELECT MAX("employee_id") AS "top"
  FROM "payroll_cells"
  WHERE "payroll_id" = ?;

-- PayrollChunksRepository.dropRun
DELETE
  FROM "payroll_chunks"
  WHERE ("payroll_id" = 1 AND "revision" = 2);

-- PayrollChunksRepository.exists
SELECT 1 AS "row_exists"
  FROM (SELECT 1 AS dummy_column) "dummy_table"
  WHERE EXISTS (SELECT 1
  FROM "payroll_chunks" "PayrollChunk"
  WHERE (("PayrollChunk"."payroll_id" = 1) AND ("PayrollChunk"."revision" = 2)))
  LIMIT 1;

-- PayrollChunksRepository.lockForChunk
SELECT "Payroll"."id" AS "Payroll_id", "Payroll"."status" AS "Payroll_status", "Payroll"."claim" AS "Payroll_claim"
  FROM "payrolls" "Payroll"
  WHERE (("Payroll"."id" = 1))
  LIMIT 1;
SELECT "PayrollChunk"."chunk" AS "PayrollChunk_chunk", "PayrollChunk"."status" AS "PayrollChunk_status", "PayrollChunk"."payroll_id" AS "PayrollChunk_payroll_id", "PayrollChunk"."revision" AS "PayrollChunk_revision"
  FROM "payroll_chunks" "PayrollChunk"
  WHERE (("PayrollChunk"."payroll_id" = 1) AND ("PayrollChunk"."revision" = 2) AND ("PayrollChunk"."chunk" = 0))
  LIMIT 1;

-- PayrollChunksRepository.markDone
UPDATE "payroll_chunks"
  SET "status" = ?, "errors" = 3
  WHERE ("payroll_id" = 1 AND "revision" = 2 AND "chunk" = 0);

-- PayrollChunksRepository.mayHaveOlderCells
SELECT 1 AS "row_exists"
  FROM (SELECT 1 AS dummy_column) "dummy_table"
  WHERE EXISTS (SELECT 1
  FROM "payroll_run_inputs" "PayrollRunInput"
  WHERE (("PayrollRunInput"."payroll_id" = 1) AND ("PayrollRunInput"."revision" < 2)))
  LIMIT 1;

-- PayrollChunksRepository.one
SELECT "PayrollChunk"."payroll_id" AS "PayrollChunk_payroll_id", "PayrollChunk"."revision" AS "PayrollChunk_revision", "PayrollChunk"."chunk" AS "PayrollChunk_chunk", "PayrollChunk"."employees" AS "PayrollChunk_employees", "PayrollChunk"."size" AS "PayrollChunk_size", "PayrollChunk"."column_set_id" AS "PayrollChunk_column_set_id", "PayrollChunk"."table_versions" AS "PayrollChunk_table_versions", "PayrollChunk"."status" AS "PayrollChunk_status", "PayrollChunk"."errors" AS "PayrollChunk_errors"
  FROM "payroll_chunks" "PayrollChunk"
  WHERE (("PayrollChunk"."payroll_id" = 1) AND ("PayrollChunk"."revision" = 2) AND ("PayrollChunk"."chunk" = 0))
  LIMIT 1;

-- PayrollChunksRepository.plan
SELECT "PayrollChunk"."column_set_id" AS "PayrollChunk_column_set_id", "PayrollChunk"."table_versions" AS "PayrollChunk_table_versions", "PayrollChunk"."chunk" AS "PayrollChunk_chunk", "PayrollChunk"."payroll_id" AS "PayrollChunk_payroll_id", "PayrollChunk"."revision" AS "PayrollChunk_revision"
  FROM "payroll_chunks" "PayrollChunk"
  WHERE (("PayrollChunk"."payroll_id" = 1) AND ("PayrollChunk"."revision" = 2) AND ("PayrollChunk"."chunk" = 0))
  LIMIT 1;

-- PayrollChunksRepository.progress
SELECT "k"."status" AS "status", COUNT(*) AS "chunks", SUM("k"."size") AS "employees", SUM("k"."errors") AS "errors"
  FROM "payroll_chunks" "k"
  WHERE "k"."payroll_id" = 1 AND "k"."revision" = 2
  GROUP BY "k"."status";

-- PayrollChunksRepository.showProgress
BEGIN IMMEDIATE TRANSACTION;
COMMIT;
UPDATE payrolls
  SET progress = CASE WHEN progress < ? AND status = ? AND claim = ? THEN ? ELSE progress END
  WHERE id = ?;

-- PayrollChunksRepository.waiting
SELECT "PayrollChunk"."chunk" AS "PayrollChunk_chunk", "PayrollChunk"."payroll_id" AS "PayrollChunk_payroll_id", "PayrollChunk"."revision" AS "PayrollChunk_revision"
  FROM "payroll_chunks" "PayrollChunk"
  WHERE (("PayrollChunk"."payroll_id" = 1) AND ("PayrollChunk"."revision" = 2) AND ("PayrollChunk"."status" = ?))
  ORDER BY "PayrollChunk_chunk" ASC;
