-- PayslipChunksRepository.create
INSERT INTO `payslip_chunks`(`payroll_id`, `claim`, `chunk`, `employees`, `size`, `status`, `failures`)
  VALUES (?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?);

-- PayslipChunksRepository.dropClaim
DELETE
  FROM `payslip_chunks`
  WHERE (`payroll_id` = ? AND `claim` = ?);

-- PayslipChunksRepository.dropOthers
DELETE
  FROM `payslip_chunks`
  WHERE (`payroll_id` = ? AND `claim` != ?);

-- PayslipChunksRepository.exists
SELECT 1 AS `row_exists`
  FROM (SELECT 1 AS dummy_column) `dummy_table`
  WHERE EXISTS (SELECT 1
  FROM `payslip_chunks` `PayslipChunk`
  WHERE ((`PayslipChunk`.`payroll_id` = ?) AND (`PayslipChunk`.`claim` = ?)))
  LIMIT 1;

-- PayslipChunksRepository.lockForChunk
SELECT `PayslipChunk`.`chunk` AS `PayslipChunk_chunk`, `PayslipChunk`.`status` AS `PayslipChunk_status`, `PayslipChunk`.`payroll_id` AS `PayslipChunk_payroll_id`, `PayslipChunk`.`claim` AS `PayslipChunk_claim`
  FROM `payslip_chunks` `PayslipChunk`
  WHERE ((`PayslipChunk`.`payroll_id` = ?) AND (`PayslipChunk`.`claim` = ?) AND (`PayslipChunk`.`chunk` = ?))
  LIMIT 1;
SELECT status, claim
  FROM payrolls
  WHERE id = ? LOCK IN SHARE MODE;

-- PayslipChunksRepository.markDone
UPDATE `payslip_chunks`
  SET `status` = ?, `failures` = ?
  WHERE (`payroll_id` = ? AND `claim` = ? AND `chunk` = ?);

-- PayslipChunksRepository.one
SELECT `PayslipChunk`.`payroll_id` AS `PayslipChunk_payroll_id`, `PayslipChunk`.`claim` AS `PayslipChunk_claim`, `PayslipChunk`.`chunk` AS `PayslipChunk_chunk`, `PayslipChunk`.`employees` AS `PayslipChunk_employees`, `PayslipChunk`.`size` AS `PayslipChunk_size`, `PayslipChunk`.`status` AS `PayslipChunk_status`, `PayslipChunk`.`failures` AS `PayslipChunk_failures`
  FROM `payslip_chunks` `PayslipChunk`
  WHERE ((`PayslipChunk`.`payroll_id` = ?) AND (`PayslipChunk`.`claim` = ?) AND (`PayslipChunk`.`chunk` = ?))
  LIMIT 1;

-- PayslipChunksRepository.outcome
SELECT `PayslipChunk`.`chunk` AS `PayslipChunk_chunk`, `PayslipChunk`.`size` AS `PayslipChunk_size`, `PayslipChunk`.`failures` AS `PayslipChunk_failures`, `PayslipChunk`.`payroll_id` AS `PayslipChunk_payroll_id`, `PayslipChunk`.`claim` AS `PayslipChunk_claim`
  FROM `payslip_chunks` `PayslipChunk`
  WHERE ((`PayslipChunk`.`payroll_id` = ?) AND (`PayslipChunk`.`claim` = ?))
  ORDER BY `PayslipChunk_chunk` ASC;

-- PayslipChunksRepository.progress
SELECT `k`.`status` AS `status`, COUNT(*) AS `chunks`
  FROM `payslip_chunks` `k`
  WHERE `k`.`payroll_id` = ? AND `k`.`claim` = ?
  GROUP BY `k`.`status`;

-- PayslipChunksRepository.waiting
SELECT `PayslipChunk`.`chunk` AS `PayslipChunk_chunk`, `PayslipChunk`.`payroll_id` AS `PayslipChunk_payroll_id`, `PayslipChunk`.`claim` AS `PayslipChunk_claim`
  FROM `payslip_chunks` `PayslipChunk`
  WHERE ((`PayslipChunk`.`payroll_id` = ?) AND (`PayslipChunk`.`claim` = ?) AND (`PayslipChunk`.`status` = ?))
  ORDER BY `PayslipChunk_chunk` ASC;
