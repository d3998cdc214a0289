-- PayrollChunksRepository.create
INSERT INTO `payroll_chunks`(`payroll_id`, `revision`, `chunk`, `employees`, `size`, `column_set_id`, `table_versions`, `status`, `errors`)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, DEFAULT), (?, ?, ?, ?, ?, ?, ?, ?, DEFAULT);

-- PayrollChunksRepository.dropOlder
COMMIT;
COMMIT;
DELETE
  FROM `payroll_cells`
  WHERE `payroll_id` = ? AND `employee_id` >= ? AND `employee_id` < ? AND `revision` < ?;
DELETE
  FROM `payroll_chunks`
  WHERE (`payroll_id` = ? AND `revision` < ?);
DELETE
  FROM `payroll_errors`
  WHERE (`payroll_id` = ? AND `revision` < ?);
DELETE
  FROM `payroll_run_inputs`
  WHERE (`payroll_id` = ? AND `revision` < ?);
SELECT MAX(`employee_id`) AS `top`
  FROM `payroll_cells`
  WHERE `payroll_id` = ?;
SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
SET TRANSACTION ISOLATION LEVEL READ COMMITTED;
START TRANSACTION;
START TRANSACTION;

-- PayrollChunksRepository.dropRun
DELETE
  FROM `payroll_chunks`
  WHERE (`payroll_id` = ? AND `revision` = ?);

-- PayrollChunksRepository.exists
SELECT 1 AS `row_exists`
  FROM (SELECT 1 AS dummy_column) `dummy_table`
  WHERE EXISTS (SELECT 1
  FROM `payroll_chunks` `PayrollChunk`
  WHERE ((`PayrollChunk`.`payroll_id` = ?) AND (`PayrollChunk`.`revision` = ?)))
  LIMIT 1;

-- PayrollChunksRepository.lockForChunk
SELECT `PayrollChunk`.`chunk` AS `PayrollChunk_chunk`, `PayrollChunk`.`status` AS `PayrollChunk_status`, `PayrollChunk`.`payroll_id` AS `PayrollChunk_payroll_id`, `PayrollChunk`.`revision` AS `PayrollChunk_revision`
  FROM `payroll_chunks` `PayrollChunk`
  WHERE ((`PayrollChunk`.`payroll_id` = ?) AND (`PayrollChunk`.`revision` = ?) AND (`PayrollChunk`.`chunk` = ?))
  LIMIT 1;
SELECT status, claim
  FROM payrolls
  WHERE id = ? LOCK IN SHARE MODE;

-- PayrollChunksRepository.markDone
UPDATE `payroll_chunks`
  SET `status` = ?, `errors` = ?
  WHERE (`payroll_id` = ? AND `revision` = ? AND `chunk` = ?);

-- PayrollChunksRepository.mayHaveOlderCells
SELECT 1 AS `row_exists`
  FROM (SELECT 1 AS dummy_column) `dummy_table`
  WHERE EXISTS (SELECT 1
  FROM `payroll_run_inputs` `PayrollRunInput`
  WHERE ((`PayrollRunInput`.`payroll_id` = ?) AND (`PayrollRunInput`.`revision` < ?)))
  LIMIT 1;

-- PayrollChunksRepository.one
SELECT `PayrollChunk`.`payroll_id` AS `PayrollChunk_payroll_id`, `PayrollChunk`.`revision` AS `PayrollChunk_revision`, `PayrollChunk`.`chunk` AS `PayrollChunk_chunk`, `PayrollChunk`.`employees` AS `PayrollChunk_employees`, `PayrollChunk`.`size` AS `PayrollChunk_size`, `PayrollChunk`.`column_set_id` AS `PayrollChunk_column_set_id`, `PayrollChunk`.`table_versions` AS `PayrollChunk_table_versions`, `PayrollChunk`.`status` AS `PayrollChunk_status`, `PayrollChunk`.`errors` AS `PayrollChunk_errors`
  FROM `payroll_chunks` `PayrollChunk`
  WHERE ((`PayrollChunk`.`payroll_id` = ?) AND (`PayrollChunk`.`revision` = ?) AND (`PayrollChunk`.`chunk` = ?))
  LIMIT 1;

-- PayrollChunksRepository.plan
SELECT `PayrollChunk`.`column_set_id` AS `PayrollChunk_column_set_id`, `PayrollChunk`.`table_versions` AS `PayrollChunk_table_versions`, `PayrollChunk`.`chunk` AS `PayrollChunk_chunk`, `PayrollChunk`.`payroll_id` AS `PayrollChunk_payroll_id`, `PayrollChunk`.`revision` AS `PayrollChunk_revision`
  FROM `payroll_chunks` `PayrollChunk`
  WHERE ((`PayrollChunk`.`payroll_id` = ?) AND (`PayrollChunk`.`revision` = ?) AND (`PayrollChunk`.`chunk` = ?))
  LIMIT 1;

-- PayrollChunksRepository.progress
SELECT `k`.`status` AS `status`, COUNT(*) AS `chunks`, SUM(`k`.`size`) AS `employees`, SUM(`k`.`errors`) AS `errors`
  FROM `payroll_chunks` `k`
  WHERE `k`.`payroll_id` = ? AND `k`.`revision` = ?
  GROUP BY `k`.`status`;

-- PayrollChunksRepository.showProgress
COMMIT;
SELECT id
  FROM payrolls
  WHERE id = ? FOR UPDATE SKIP LOCKED;
START TRANSACTION;

-- PayrollChunksRepository.waiting
SELECT `PayrollChunk`.`chunk` AS `PayrollChunk_chunk`, `PayrollChunk`.`payroll_id` AS `PayrollChunk_payroll_id`, `PayrollChunk`.`revision` AS `PayrollChunk_revision`
  FROM `payroll_chunks` `PayrollChunk`
  WHERE ((`PayrollChunk`.`payroll_id` = ?) AND (`PayrollChunk`.`revision` = ?) AND (`PayrollChunk`.`status` = ?))
  ORDER BY `PayrollChunk_chunk` ASC;
