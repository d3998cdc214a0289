-- LiabilityRepository.computedDays
SELECT d.day AS day, d.ledger_mark AS ledgerMark, d.change_mark AS changeMark
  FROM `leave_liability_days` `d`
  WHERE d.ledger_mark <> ?;

-- LiabilityRepository.datedBetween
SELECT DISTINCT `l`.`employee_id` AS `employee`
  FROM `leave_ledger` `l`
  WHERE `l`.`leave_type_id` IN (?, ?) AND `l`.`date` > ? AND `l`.`date` <= ?;
SELECT DISTINCT `s`.`employee_id` AS `employee`
  FROM `employment_segments` `s`
  WHERE `s`.`effective_from` > ? AND `s`.`effective_from` <= ?;

-- LiabilityRepository.evict
SELECT d.day AS `day`
  FROM `leave_liability_days` `d`
  WHERE d.day <> ?
  ORDER BY d.used_ms DESC, d.day DESC
  LIMIT 100 OFFSET 7;

-- LiabilityRepository.lastAskedMs
SELECT MAX(used_ms) AS used
  FROM leave_liability_days;

-- LiabilityRepository.marks
SELECT d.ledger_mark AS ledgerMark, d.change_mark AS changeMark, d.holes AS holes
  FROM `leave_liability_days` `d`
  WHERE d.day = ?;

-- LiabilityRepository.open
INSERT IGNORE INTO `leave_liability_days`(`day`, `ledger_mark`, `change_mark`, `used_ms`)
  VALUES (?, ?, ?, ?);
SELECT d.ledger_mark AS ledgerMark, d.change_mark AS changeMark, d.holes AS holes
  FROM `leave_liability_days` `d`
  WHERE d.day = ?;
UPDATE leave_liability_days
  SET used_ms = ?
  WHERE day = ?;

-- LiabilityRepository.replace
COMMIT;
START TRANSACTION;
UPDATE `leave_liability_days`
  SET `ledger_mark` = ?, `change_mark` = ?, `holes` = ?
  WHERE day = ? AND ledger_mark = ? AND change_mark = ?;

-- LiabilityRepository.rollFrom
COMMIT;
SELECT ledger_mark AS ledgerMark, change_mark AS changeMark, holes
  FROM leave_liability_days
  WHERE day = ? FOR UPDATE;
START TRANSACTION;

-- LiabilityRepository.sums
SELECT b.leave_type_id AS leaveType, b.department_id AS department, COUNT(*) AS `employees`, SUM(b.available) AS `days`
  FROM `leave_liability_balances` `b`
  WHERE b.day = ?
  GROUP BY b.leave_type_id, b.department_id;

-- LiabilityRepository.sums (scoped)
SELECT b.leave_type_id AS leaveType, b.department_id AS department, COUNT(*) AS `employees`, SUM(b.available) AS `days`
  FROM `leave_liability_balances` `b`
  INNER JOIN `employees` `e` ON `e`.`id` = b.employee_id
  WHERE b.day = ? AND `e`.`department_id` IN (?, ?)
  GROUP BY b.leave_type_id, b.department_id;
