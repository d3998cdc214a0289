-- EmploymentHistoryRepository.calendarSpans
SELECT `s`.`employee_id` AS `employee`, `s`.`effective_from` AS `from`, `s`.`effective_to` AS `to`, `s`.`calendar_id` AS `calendar`
  FROM `employment_segments` `s`
  WHERE `s`.`employee_id` IN (?, ?) AND `s`.`calendar_id` IS NOT NULL AND `s`.`effective_from` <= ? AND (`s`.`effective_to` IS NULL OR `s`.`effective_to` >= ?)
  ORDER BY `s`.`employee_id` ASC, `s`.`effective_from` ASC;

-- EmploymentHistoryRepository.calendarUsers
SELECT COUNT(1) AS `cnt`
  FROM `employees` `Employee`
  WHERE ((`Employee`.`calendar_id` = ?));
SELECT COUNT(DISTINCT `s`.`employee_id`) AS `n`
  FROM `employment_segments` `s`
  WHERE `s`.`calendar_id` = ?;

-- EmploymentHistoryRepository.change
SELECT `EmploymentChange`.`id` AS `EmploymentChange_id`, `EmploymentChange`.`employee_id` AS `EmploymentChange_employee_id`, `EmploymentChange`.`effective_date` AS `EmploymentChange_effective_date`, `EmploymentChange`.`reason` AS `EmploymentChange_reason`, `EmploymentChange`.`fields` AS `EmploymentChange_fields`, `EmploymentChange`.`salary` AS `EmploymentChange_salary`, `EmploymentChange`.`status` AS `EmploymentChange_status`, `EmploymentChange`.`recorded_at` AS `EmploymentChange_recorded_at`, `EmploymentChange`.`recorded_by` AS `EmploymentChange_recorded_by`, `EmploymentChange`.`cancelled_at` AS `EmploymentChange_cancelled_at`, `EmploymentChange`.`corrects` AS `EmploymentChange_corrects`
  FROM `employment_changes` `EmploymentChange`
  WHERE ((`EmploymentChange`.`id` = ?))
  LIMIT 1;

-- EmploymentHistoryRepository.changesByIds
SELECT `EmploymentChange`.`id` AS `EmploymentChange_id`, `EmploymentChange`.`employee_id` AS `EmploymentChange_employee_id`, `EmploymentChange`.`effective_date` AS `EmploymentChange_effective_date`, `EmploymentChange`.`reason` AS `EmploymentChange_reason`, `EmploymentChange`.`fields` AS `EmploymentChange_fields`, `EmploymentChange`.`salary` AS `EmploymentChange_salary`, `EmploymentChange`.`status` AS `EmploymentChange_status`, `EmploymentChange`.`recorded_at` AS `EmploymentChange_recorded_at`, `EmploymentChange`.`recorded_by` AS `EmploymentChange_recorded_by`, `EmploymentChange`.`cancelled_at` AS `EmploymentChange_cancelled_at`, `EmploymentChange`.`corrects` AS `EmploymentChange_corrects`
  FROM `employment_changes` `EmploymentChange`
  WHERE ((`EmploymentChange`.`id` IN (?, ?)));

-- EmploymentHistoryRepository.changesOf
SELECT `EmploymentChange`.`id` AS `EmploymentChange_id`, `EmploymentChange`.`employee_id` AS `EmploymentChange_employee_id`, `EmploymentChange`.`effective_date` AS `EmploymentChange_effective_date`, `EmploymentChange`.`reason` AS `EmploymentChange_reason`, `EmploymentChange`.`fields` AS `EmploymentChange_fields`, `EmploymentChange`.`salary` AS `EmploymentChange_salary`, `EmploymentChange`.`status` AS `EmploymentChange_status`, `EmploymentChange`.`recorded_at` AS `EmploymentChange_recorded_at`, `EmploymentChange`.`recorded_by` AS `EmploymentChange_recorded_by`, `EmploymentChange`.`cancelled_at` AS `EmploymentChange_cancelled_at`, `EmploymentChange`.`corrects` AS `EmploymentChange_corrects`
  FROM `employment_changes` `EmploymentChange`
  WHERE ((`EmploymentChange`.`employee_id` = ?))
  ORDER BY `EmploymentChange`.`id` ASC;

-- EmploymentHistoryRepository.changesOfMany
SELECT `EmploymentChange`.`id` AS `EmploymentChange_id`, `EmploymentChange`.`employee_id` AS `EmploymentChange_employee_id`, `EmploymentChange`.`effective_date` AS `EmploymentChange_effective_date`, `EmploymentChange`.`reason` AS `EmploymentChange_reason`, `EmploymentChange`.`fields` AS `EmploymentChange_fields`, `EmploymentChange`.`salary` AS `EmploymentChange_salary`, `EmploymentChange`.`status` AS `EmploymentChange_status`, `EmploymentChange`.`recorded_at` AS `EmploymentChange_recorded_at`, `EmploymentChange`.`recorded_by` AS `EmploymentChange_recorded_by`, `EmploymentChange`.`cancelled_at` AS `EmploymentChange_cancelled_at`, `EmploymentChange`.`corrects` AS `EmploymentChange_corrects`
  FROM `employment_changes` `EmploymentChange`
  WHERE ((`EmploymentChange`.`employee_id` IN (?, ?)))
  ORDER BY `EmploymentChange`.`id` ASC;

-- EmploymentHistoryRepository.changesSince
SELECT `c`.`id` AS `c_id`, `c`.`employee_id` AS `c_employee_id`, `c`.`effective_date` AS `c_effective_date`, `c`.`reason` AS `c_reason`, `c`.`fields` AS `c_fields`, `c`.`salary` AS `c_salary`, `c`.`status` AS `c_status`, `c`.`recorded_at` AS `c_recorded_at`, `c`.`recorded_by` AS `c_recorded_by`, `c`.`cancelled_at` AS `c_cancelled_at`, `c`.`corrects` AS `c_corrects`
  FROM `employment_changes` `c`
  WHERE `c`.`employee_id` IN (?, ?) AND `c`.`effective_date` <= ? AND (`c`.`recorded_at` > ? OR `c`.`cancelled_at` > ?);

-- EmploymentHistoryRepository.dueEmployees
SELECT DISTINCT `c`.`employee_id` AS `employee`
  FROM `employment_changes` `c`
  WHERE `c`.`status` = ? AND `c`.`effective_date` <= ?
  ORDER BY `c`.`employee_id` ASC
  LIMIT 500;

-- EmploymentHistoryRepository.insertChanges
INSERT INTO `employment_changes`(`id`, `employee_id`, `effective_date`, `reason`, `fields`, `salary`, `status`, `recorded_at`, `recorded_by`, `cancelled_at`, `corrects`)
  VALUES (DEFAULT, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- EmploymentHistoryRepository.insertFirstChanges
INSERT INTO `employment_changes` (`employee_id`, `effective_date`, `reason`, `fields`, `salary`, `status`, `recorded_at`, `recorded_by`, `cancelled_at`, `corrects`)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
SELECT `EmploymentChange`.`id` AS `EmploymentChange_id`, `EmploymentChange`.`employee_id` AS `EmploymentChange_employee_id`
  FROM `employment_changes` `EmploymentChange`
  WHERE ((`EmploymentChange`.`employee_id` IN (?)));

-- EmploymentHistoryRepository.replaceSegments
DELETE
  FROM `employment_segments`
  WHERE `employee_id` IN (?);

-- EmploymentHistoryRepository.segmentOn
SELECT effective_from, effective_to, job_title_id, department_id, pay_grade_id, employment_status_id, supervisor_id, approver1_id, approver2_id, approver3_id, calendar_id, salary, change_id, extra
  FROM employment_segments
  WHERE employee_id = ? AND effective_from <= ?
  ORDER BY effective_from DESC
  LIMIT 1;

-- EmploymentHistoryRepository.segmentsBetween
SELECT `s`.`employee_id` AS `s_employee_id`, `s`.`effective_from` AS `s_effective_from`, `s`.`effective_to` AS `s_effective_to`, `s`.`job_title_id` AS `s_job_title_id`, `s`.`department_id` AS `s_department_id`, `s`.`pay_grade_id` AS `s_pay_grade_id`, `s`.`employment_status_id` AS `s_employment_status_id`, `s`.`supervisor_id` AS `s_supervisor_id`, `s`.`approver1_id` AS `s_approver1_id`, `s`.`approver2_id` AS `s_approver2_id`, `s`.`approver3_id` AS `s_approver3_id`, `s`.`calendar_id` AS `s_calendar_id`, `s`.`salary` AS `s_salary`, `s`.`change_id` AS `s_change_id`, `s`.`extra` AS `s_extra`
  FROM `employment_segments` `s`
  WHERE `s`.`employee_id` IN (?, ?) AND `s`.`effective_from` <= ? AND (`s`.`effective_to` IS NULL OR `s`.`effective_to` >= ?);

-- EmploymentHistoryRepository.segmentsOn
SELECT `s`.`employee_id` AS `s_employee_id`, `s`.`effective_from` AS `s_effective_from`, `s`.`effective_to` AS `s_effective_to`, `s`.`job_title_id` AS `s_job_title_id`, `s`.`department_id` AS `s_department_id`, `s`.`pay_grade_id` AS `s_pay_grade_id`, `s`.`employment_status_id` AS `s_employment_status_id`, `s`.`supervisor_id` AS `s_supervisor_id`, `s`.`approver1_id` AS `s_approver1_id`, `s`.`approver2_id` AS `s_approver2_id`, `s`.`approver3_id` AS `s_approver3_id`, `s`.`calendar_id` AS `s_calendar_id`, `s`.`salary` AS `s_salary`, `s`.`change_id` AS `s_change_id`, `s`.`extra` AS `s_extra`
  FROM `employment_segments` `s`
  WHERE `s`.`employee_id` IN (?, ?) AND `s`.`effective_from` <= ? AND (`s`.`effective_to` IS NULL OR `s`.`effective_to` >= ?);
