-- LeaveLedgerRepository.assignments
SELECT `a`.`id` AS `a_id`, `a`.`policy_id` AS `a_policy_id`, `a`.`employee_id` AS `a_employee_id`, `a`.`department_id` AS `a_department_id`, `a`.`employment_status_id` AS `a_employment_status_id`, `a`.`pay_grade_id` AS `a_pay_grade_id`, `a`.`valid_from` AS `a_valid_from`, `a`.`valid_to` AS `a_valid_to`
  FROM `leave_policy_assignments` `a`
  WHERE (`a`.`employee_id` IS NULL OR `a`.`employee_id` IN (?, ?));

-- LeaveLedgerRepository.employedIds
SELECT `x`.`id` AS `id`
  FROM `employees` `x`
  INNER JOIN `employees` `e` ON `e`.`id` = `x`.`id`
  WHERE `x`.`joined_date` <= ? AND (`x`.`termination_date` IS NULL OR `x`.`termination_date` >= ?) AND `e`.`department_id` IN (?, ?) AND `x`.`id` > ?
  ORDER BY `x`.`id` ASC
  LIMIT 1000;

-- LeaveLedgerRepository.employeeIds
SELECT `x`.`id` AS `id`
  FROM `employees` `x`
  WHERE `x`.`id` > ?
  ORDER BY `x`.`id` ASC
  LIMIT 1000;

-- LeaveLedgerRepository.entries
SELECT `x`.`employee_id` AS `x_employee_id`, `x`.`leave_type_id` AS `x_leave_type_id`, `x`.`date` AS `x_date`, `x`.`kind` AS `x_kind`, `x`.`days` AS `x_days`, `x`.`entry_key` AS `x_entry_key`, `x`.`id` AS `x_id`
  FROM `leave_ledger` `x`
  WHERE `x`.`employee_id` IN (?, ?) AND `x`.`date` >= ? AND `x`.`date` <= ?
  ORDER BY `x`.`id` ASC;

-- LeaveLedgerRepository.entriesOfKind
SELECT `x`.`id` AS `id`, `x`.`days` AS `days`, `x`.`employee_id` AS `employee`
  FROM `leave_ledger` `x`
  WHERE `x`.`employee_id` IN (?, ?) AND `x`.`leave_type_id` = ? AND `x`.`kind` = ? AND `x`.`date` BETWEEN ? AND ?
  ORDER BY `x`.`id` ASC;

-- LeaveLedgerRepository.exists
SELECT `t`.`id` AS `t_id`
  FROM `departments` `t`
  WHERE `t`.`id` = ?;

-- LeaveLedgerRepository.facts
SELECT `d`.`id` AS id, `d`.`parent_id` AS parent
  FROM `departments` `d`;
SELECT `e`.`id` AS id, `e`.`joined_date` AS joined, `e`.`termination_date` AS termination, `e`.`department_id` AS department, `e`.`employment_status_id` AS status, `e`.`pay_grade_id` AS grade, `f`.`name` AS frequency
  FROM `employees` `e`
  LEFT JOIN `payroll_employees` `pe` ON `pe`.`employee_id` = `e`.`id`
  LEFT JOIN `pay_frequencies` `f` ON `f`.`id` = `pe`.`pay_frequency_id`
  WHERE `e`.`id` IN (?, ?);
SELECT `s`.`employee_id` AS employee, `s`.`effective_from` AS day, `s`.`department_id` AS department, `s`.`employment_status_id` AS status, `s`.`pay_grade_id` AS grade
  FROM `employment_segments` `s`
  WHERE `s`.`employee_id` IN (?, ?)
  ORDER BY `s`.`employee_id` ASC, `s`.`effective_from` ASC;

-- LeaveLedgerRepository.keyExists
SELECT 1 AS `row_exists`
  FROM (SELECT 1 AS dummy_column) `dummy_table`
  WHERE EXISTS (SELECT 1
  FROM `leave_ledger` `LeaveLedgerEntry`
  WHERE ((`LeaveLedgerEntry`.`employee_id` = ?) AND (`LeaveLedgerEntry`.`entry_key` = ?)))
  LIMIT 1;

-- LeaveLedgerRepository.leaveTypes
SELECT `LeaveType`.`id` AS `LeaveType_id`, `LeaveType`.`name` AS `LeaveType_name`, `LeaveType`.`default_days` AS `LeaveType_default_days`, `LeaveType`.`color` AS `LeaveType_color`, `LeaveType`.`allow_negative` AS `LeaveType_allow_negative`
  FROM `leave_types` `LeaveType`
  ORDER BY `LeaveType`.`id` ASC;

-- LeaveLedgerRepository.pendingDays
SELECT `d`.`employee_id` AS `employee`, `d`.`leave_type_id` AS `type`, SUM(`d`.`days`) AS `days`
  FROM `leave_days` `d`
  WHERE `d`.`employee_id` IN (?, ?) AND `d`.`status` = 'Pending' AND `d`.`date` >= ? AND `d`.`date` <= ?
  GROUP BY `d`.`employee_id`, `d`.`leave_type_id`;

-- LeaveLedgerRepository.periods
SELECT `LeavePeriod`.`id` AS `LeavePeriod_id`, `LeavePeriod`.`name` AS `LeavePeriod_name`, `LeavePeriod`.`date_start` AS `LeavePeriod_date_start`, `LeavePeriod`.`date_end` AS `LeavePeriod_date_end`
  FROM `leave_periods` `LeavePeriod`
  ORDER BY `LeavePeriod`.`date_start` ASC;

-- LeaveLedgerRepository.policies
SELECT `LeavePolicy`.`id` AS `LeavePolicy_id`, `LeavePolicy`.`name` AS `LeavePolicy_name`, `LeavePolicy`.`leave_type_id` AS `LeavePolicy_leave_type_id`, `LeavePolicy`.`accrual` AS `LeavePolicy_accrual`, `LeavePolicy`.`amount` AS `LeavePolicy_amount`, `LeavePolicy`.`prorate_joiners` AS `LeavePolicy_prorate_joiners`, `LeavePolicy`.`waiting_days` AS `LeavePolicy_waiting_days`, `LeavePolicy`.`max_balance` AS `LeavePolicy_max_balance`, `LeavePolicy`.`carry_over_max` AS `LeavePolicy_carry_over_max`, `LeavePolicy`.`carry_over_expiry_months` AS `LeavePolicy_carry_over_expiry_months`, `LeavePolicy`.`allow_negative` AS `LeavePolicy_allow_negative`, `LeavePolicy`.`encashable` AS `LeavePolicy_encashable`, `LeavePolicy`.`encashment_max` AS `LeavePolicy_encashment_max`
  FROM `leave_policies` `LeavePolicy`
  WHERE ((`LeavePolicy`.`id` IN (?, ?)));

-- LeaveLedgerRepository.requestDays
SELECT `LeaveDay`.`request_id` AS `LeaveDay_request_id`, `LeaveDay`.`date` AS `LeaveDay_date`, `LeaveDay`.`employee_id` AS `LeaveDay_employee_id`, `LeaveDay`.`leave_type_id` AS `LeaveDay_leave_type_id`, `LeaveDay`.`status` AS `LeaveDay_status`, `LeaveDay`.`days` AS `LeaveDay_days`, `LeaveDay`.`first_date` AS `LeaveDay_first_date`, `LeaveDay`.`first_of_dom` AS `LeaveDay_first_of_dom`, `LeaveDay`.`first_of_weekday` AS `LeaveDay_first_of_weekday`
  FROM `leave_days` `LeaveDay`
  WHERE ((`LeaveDay`.`request_id` = ?))
  ORDER BY `LeaveDay`.`date` ASC;
