-- AccrualRunsRepository.allPolicies
SELECT `LeavePolicy`.`id` AS `LeavePolicy_id`, `LeavePolicy`.`name` AS `LeavePolicy_name`, `LeavePolicy`.`leave_type_id` AS `LeavePolicy_leave_type_id`, `LeavePolicy`.`accrual` AS `LeavePolicy_accrual`, `LeavePolicy`.`amount` AS `LeavePolicy_amount`, `LeavePolicy`.`prorate_joiners` AS `LeavePolicy_prorate_joiners`, `LeavePolicy`.`waiting_days` AS `LeavePolicy_waiting_days`, `LeavePolicy`.`max_balance` AS `LeavePolicy_max_balance`, `LeavePolicy`.`carry_over_max` AS `LeavePolicy_carry_over_max`, `LeavePolicy`.`carry_over_expiry_months` AS `LeavePolicy_carry_over_expiry_months`, `LeavePolicy`.`allow_negative` AS `LeavePolicy_allow_negative`, `LeavePolicy`.`encashable` AS `LeavePolicy_encashable`, `LeavePolicy`.`encashment_max` AS `LeavePolicy_encashment_max`
  FROM `leave_policies` `LeavePolicy`;

-- AccrualRunsRepository.changedSince
SELECT COUNT(*) AS n
  FROM leave_accrual_changes
  WHERE id > ? AND id <= ?;
SELECT COUNT(*) AS n
  FROM leave_ledger
  WHERE id > ? AND id <= ?;
SELECT c.id AS `id`
  FROM `leave_accrual_changes` `c`
  WHERE ((c.id > ? AND c.id <= ?)) AND c.employee_id IS NULL
  LIMIT 1;
SELECT prev + 1 AS first, id - 1 AS last
  FROM (SELECT id, COALESCE(LAG(id) OVER (ORDER BY id), ?) AS prev
  FROM leave_accrual_changes
  WHERE id > ? AND id <= ?) g
  WHERE id > prev + 1
  UNION ALL SELECT COALESCE(MAX(id), ?) + 1 AS first, ? AS last
  FROM leave_accrual_changes
  WHERE id > ? AND id <= ? HAVING COALESCE(MAX(id), ?) < ?;
SELECT prev + 1 AS first, id - 1 AS last
  FROM (SELECT id, COALESCE(LAG(id) OVER (ORDER BY id), ?) AS prev
  FROM leave_ledger
  WHERE id > ? AND id <= ?) g
  WHERE id > prev + 1
  UNION ALL SELECT COALESCE(MAX(id), ?) + 1 AS first, ? AS last
  FROM leave_ledger
  WHERE id > ? AND id <= ? HAVING COALESCE(MAX(id), ?) < ?;

-- AccrualRunsRepository.changedSince (carryOvers)
SELECT COUNT(*) AS n
  FROM leave_accrual_changes
  WHERE id > ? AND id <= ?;
SELECT COUNT(*) AS n
  FROM leave_ledger
  WHERE id > ? AND id <= ?;
SELECT c.id AS `id`
  FROM `leave_accrual_changes` `c`
  WHERE ((c.id > ? AND c.id <= ?)) AND c.employee_id IS NULL
  LIMIT 1;
SELECT prev + 1 AS first, id - 1 AS last
  FROM (SELECT id, COALESCE(LAG(id) OVER (ORDER BY id), ?) AS prev
  FROM leave_accrual_changes
  WHERE id > ? AND id <= ?) g
  WHERE id > prev + 1
  UNION ALL SELECT COALESCE(MAX(id), ?) + 1 AS first, ? AS last
  FROM leave_accrual_changes
  WHERE id > ? AND id <= ? HAVING COALESCE(MAX(id), ?) < ?;
SELECT prev + 1 AS first, id - 1 AS last
  FROM (SELECT id, COALESCE(LAG(id) OVER (ORDER BY id), ?) AS prev
  FROM leave_ledger
  WHERE id > ? AND id <= ?) g
  WHERE id > prev + 1
  UNION ALL SELECT COALESCE(MAX(id), ?) + 1 AS first, ? AS last
  FROM leave_ledger
  WHERE id > ? AND id <= ? HAVING COALESCE(MAX(id), ?) < ?;

-- AccrualRunsRepository.changedSince (holes)
SELECT COUNT(*) AS n
  FROM leave_accrual_changes
  WHERE id > ? AND id <= ?;
SELECT COUNT(*) AS n
  FROM leave_ledger
  WHERE id > ? AND id <= ?;
SELECT DISTINCT `l`.`employee_id` AS `employee`
  FROM `leave_ledger` `l`
  WHERE ((`l`.`id` > ? AND `l`.`id` <= ?) OR `l`.`id` BETWEEN ? AND ?) AND `l`.`source` <> 'policy';
SELECT DISTINCT c.employee_id AS `employee`
  FROM `leave_accrual_changes` `c`
  WHERE ((c.id > ? AND c.id <= ?) OR c.id BETWEEN ? AND ?);
SELECT c.id AS `id`
  FROM `leave_accrual_changes` `c`
  WHERE ((c.id > ? AND c.id <= ?) OR c.id BETWEEN ? AND ?) AND c.employee_id IS NULL
  LIMIT 1;
SELECT id
  FROM leave_accrual_changes
  WHERE (id BETWEEN ? AND ?)
  ORDER BY id;
SELECT id
  FROM leave_ledger
  WHERE (id BETWEEN ? AND ?)
  ORDER BY id;
SELECT prev + 1 AS first, id - 1 AS last
  FROM (SELECT id, COALESCE(LAG(id) OVER (ORDER BY id), ?) AS prev
  FROM leave_accrual_changes
  WHERE id > ? AND id <= ?) g
  WHERE id > prev + 1
  UNION ALL SELECT COALESCE(MAX(id), ?) + 1 AS first, ? AS last
  FROM leave_accrual_changes
  WHERE id > ? AND id <= ? HAVING COALESCE(MAX(id), ?) < ?;
SELECT prev + 1 AS first, id - 1 AS last
  FROM (SELECT id, COALESCE(LAG(id) OVER (ORDER BY id), ?) AS prev
  FROM leave_ledger
  WHERE id > ? AND id <= ?) g
  WHERE id > prev + 1
  UNION ALL SELECT COALESCE(MAX(id), ?) + 1 AS first, ? AS last
  FROM leave_ledger
  WHERE id > ? AND id <= ? HAVING COALESCE(MAX(id), ?) < ?;

-- AccrualRunsRepository.dueFacts
SELECT `e`.`id` AS id, `e`.`joined_date` AS joined, `e`.`termination_date` AS termination
  FROM `employees` `e`;

-- AccrualRunsRepository.holes
SELECT COUNT(*) AS n
  FROM leave_accrual_changes
  WHERE id > ? AND id <= ?;
SELECT COUNT(*) AS n
  FROM leave_ledger
  WHERE id > ? AND id <= ?;
SELECT prev + 1 AS first, id - 1 AS last
  FROM (SELECT id, COALESCE(LAG(id) OVER (ORDER BY id), ?) AS prev
  FROM leave_accrual_changes
  WHERE id > ? AND id <= ?) g
  WHERE id > prev + 1
  UNION ALL SELECT COALESCE(MAX(id), ?) + 1 AS first, ? AS last
  FROM leave_accrual_changes
  WHERE id > ? AND id <= ? HAVING COALESCE(MAX(id), ?) < ?;
SELECT prev + 1 AS first, id - 1 AS last
  FROM (SELECT id, COALESCE(LAG(id) OVER (ORDER BY id), ?) AS prev
  FROM leave_ledger
  WHERE id > ? AND id <= ?) g
  WHERE id > prev + 1
  UNION ALL SELECT COALESCE(MAX(id), ?) + 1 AS first, ? AS last
  FROM leave_ledger
  WHERE id > ? AND id <= ? HAVING COALESCE(MAX(id), ?) < ?;

-- AccrualRunsRepository.last
SELECT r.day AS day, r.ledger_mark AS ledgerMark, r.change_mark AS changeMark, r.holes AS holes
  FROM `leave_accrual_runs` `r`
  ORDER BY r.id DESC
  LIMIT 1;

-- AccrualRunsRepository.marks
SELECT MAX(id) AS mark
  FROM leave_accrual_changes;
SELECT MAX(id) AS mark
  FROM leave_ledger;

-- AccrualRunsRepository.record
INSERT INTO leave_accrual_runs (day, full_run, ledger_mark, change_mark, holes, employees, written, finished_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?);
