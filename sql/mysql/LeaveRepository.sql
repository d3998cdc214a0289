-- LeaveRepository.approvedOverlapping
SELECT `l`.`id` AS `l_id`, `l`.`employee_id` AS `l_employee_id`, `l`.`leave_type_id` AS `l_leave_type_id`, `l`.`date_start` AS `l_date_start`, `l`.`date_end` AS `l_date_end`, `l`.`half_day` AS `l_half_day`, `l`.`days` AS `l_days`, `l`.`status` AS `l_status`, `l`.`reason` AS `l_reason`, `l`.`approver_id` AS `l_approver_id`, `l`.`decided_by` AS `l_decided_by`, `l`.`decided_at` AS `l_decided_at`, `l`.`created_at` AS `l_created_at`, `l`.`updated_at` AS `l_updated_at`
  FROM `leave_requests` `l`
  WHERE `l`.`employee_id` IN (?, ?) AND `l`.`status` = 'Approved' AND `l`.`date_start` <= ? AND `l`.`date_end` >= ? AND `l`.`leave_type_id` = ?;

-- LeaveRepository.awayOn
SELECT DISTINCT `l`.`employee_id` AS `employee_id`
  FROM `leave_requests` `l`
  WHERE `l`.`status` = 'Approved' AND `l`.`employee_id` IN (?, ?) AND `l`.`date_start` <= ? AND `l`.`date_end` >= ?;

-- LeaveRepository.countsByStatus
SELECT `l`.`status` AS `status`, COUNT(*) AS `n`
  FROM `leave_requests` `l`
  WHERE `l`.`employee_id` = ?
  GROUP BY `l`.`status`;

-- LeaveRepository.daysByTypeAndStatus
SELECT `l`.`status` AS `status`, `l`.`leave_type_id` AS `type`, SUM(`l`.`days`) AS `days`
  FROM `leave_requests` `l`
  WHERE `l`.`employee_id` = ? AND `l`.`leave_type_id` IN (?, ?) AND `l`.`status` IN (?, ?) AND `l`.`date_start` BETWEEN ? AND ?
  GROUP BY `l`.`leave_type_id`, `l`.`status`;

-- LeaveRepository.firstOverlapping
SELECT `l`.`id` AS `l_id`, `l`.`employee_id` AS `l_employee_id`, `l`.`leave_type_id` AS `l_leave_type_id`, `l`.`date_start` AS `l_date_start`, `l`.`date_end` AS `l_date_end`, `l`.`half_day` AS `l_half_day`, `l`.`days` AS `l_days`, `l`.`status` AS `l_status`, `l`.`reason` AS `l_reason`, `l`.`approver_id` AS `l_approver_id`, `l`.`decided_by` AS `l_decided_by`, `l`.`decided_at` AS `l_decided_at`, `l`.`created_at` AS `l_created_at`, `l`.`updated_at` AS `l_updated_at`
  FROM `leave_requests` `l`
  WHERE `l`.`employee_id` = ? AND `l`.`status` IN (?, ?) AND `l`.`date_start` <= ? AND `l`.`date_end` >= ?
  ORDER BY `l`.`date_start` ASC
  LIMIT 1;

-- LeaveRepository.openOverlapping
SELECT `l`.`id` AS `l_id`, `l`.`employee_id` AS `l_employee_id`, `l`.`leave_type_id` AS `l_leave_type_id`, `l`.`date_start` AS `l_date_start`, `l`.`date_end` AS `l_date_end`, `l`.`half_day` AS `l_half_day`, `l`.`days` AS `l_days`, `l`.`status` AS `l_status`, `l`.`reason` AS `l_reason`, `l`.`approver_id` AS `l_approver_id`, `l`.`decided_by` AS `l_decided_by`, `l`.`decided_at` AS `l_decided_at`, `l`.`created_at` AS `l_created_at`, `l`.`updated_at` AS `l_updated_at`
  FROM `leave_requests` `l`
  WHERE `l`.`status` IN (?, ?) AND `l`.`date_end` >= ? AND `l`.`date_start` <= ? AND `l`.`employee_id` = ?
  ORDER BY `l`.`id` ASC;
