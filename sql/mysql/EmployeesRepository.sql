-- EmployeesRepository.byEmployeeIds
SELECT `Employee`.`id` AS `Employee_id`, `Employee`.`employee_id` AS `Employee_employee_id`, `Employee`.`first_name` AS `Employee_first_name`, `Employee`.`middle_name` AS `Employee_middle_name`, `Employee`.`last_name` AS `Employee_last_name`, `Employee`.`gender` AS `Employee_gender`, `Employee`.`marital_status` AS `Employee_marital_status`, `Employee`.`birthday` AS `Employee_birthday`, `Employee`.`joined_date` AS `Employee_joined_date`, `Employee`.`confirmation_date` AS `Employee_confirmation_date`, `Employee`.`termination_date` AS `Employee_termination_date`, `Employee`.`nationality_id` AS `Employee_nationality_id`, `Employee`.`ssn_num` AS `Employee_ssn_num`, `Employee`.`nic_num` AS `Employee_nic_num`, `Employee`.`other_id` AS `Employee_other_id`, `Employee`.`driving_license` AS `Employee_driving_license`, `Employee`.`address1` AS `Employee_address1`, `Employee`.`address2` AS `Employee_address2`, `Employee`.`city` AS `Employee_city`, `Employee`.`country` AS `Employee_country`, `Employee`.`province` AS `Employee_province`, `Employee`.`postal_code` AS `Employee_postal_code`, `Employee`.`home_phone` AS `Employee_home_phone`, `Employee`.`mobile_phone` AS `Employee_mobile_phone`, `Employee`.`work_phone` AS `Employee_work_phone`, `Employee`.`work_email` AS `Employee_work_email`, `Employee`.`private_email` AS `Employee_private_email`, `Employee`.`employment_status_id` AS `Employee_employment_status_id`, `Employee`.`job_title_id` AS `Employee_job_title_id`, `Employee`.`pay_grade_id` AS `Employee_pay_grade_id`, `Employee`.`department_id` AS `Employee_department_id`, `Employee`.`supervisor_id` AS `Employee_supervisor_id`, `Employee`.`approver1_id` AS `Employee_approver1_id`, `Employee`.`approver2_id` AS `Employee_approver2_id`, `Employee`.`approver3_id` AS `Employee_approver3_id`, `Employee`.`calendar_id` AS `Employee_calendar_id`, `Employee`.`status` AS `Employee_status`, `Employee`.`created_at` AS `Employee_created_at`, `Employee`.`updated_at` AS `Employee_updated_at`
  FROM `employees` `Employee`
  WHERE ((`Employee`.`employee_id` IN (?, ?)));

-- EmployeesRepository.datedFactsOf
SELECT `s`.`employee_id` AS employee, `s`.`effective_from` AS day, `s`.`department_id` AS department, `s`.`employment_status_id` AS status, `s`.`pay_grade_id` AS grade
  FROM `employment_segments` `s`
  WHERE `s`.`employee_id` IN (?, ?)
  ORDER BY `s`.`employee_id` ASC, `s`.`effective_from` ASC;

-- EmployeesRepository.deliveryFieldsOf
SELECT `e`.`id` AS id, `e`.`employee_id` AS code, `e`.`first_name` AS first, `e`.`last_name` AS last, `e`.`birthday` AS birthday, `e`.`work_email` AS work, `e`.`private_email` AS private
  FROM `employees` `e`
  WHERE `e`.`id` IN (?, ?, ?);

-- EmployeesRepository.employmentDatesOf
SELECT `Employee`.`id` AS `Employee_id`, `Employee`.`joined_date` AS `Employee_joined_date`, `Employee`.`termination_date` AS `Employee_termination_date`
  FROM `employees` `Employee`
  WHERE ((`Employee`.`id` IN (?, ?, ?)));

-- EmployeesRepository.extraOn
SELECT `s`.`employee_id` AS id, `s`.`extra` AS extra
  FROM `employment_segments` `s`
  WHERE `s`.`employee_id` IN (?, ?) AND `s`.`effective_from` <= ? AND (`s`.`effective_to` IS NULL OR `s`.`effective_to` >= ?);

-- EmployeesRepository.headcountOn
SELECT `s`.`department_id` AS `department`, COUNT(*) AS `count`
  FROM `employment_segments` `s`
  INNER JOIN `employees` `e` ON `e`.`id` = `s`.`employee_id`
  WHERE `s`.`effective_from` <= ? AND (`s`.`effective_to` IS NULL OR `s`.`effective_to` >= ?) AND `e`.`joined_date` <= ? AND (`e`.`termination_date` IS NULL OR `e`.`termination_date` > ?) AND `e`.`department_id` IN (?, ?)
  GROUP BY `s`.`department_id`;

-- EmployeesRepository.insertMany
INSERT INTO `employees` (`employee_id`, `first_name`, `last_name`, `joined_date`, `status`, `created_at`, `updated_at`)
  VALUES (?, ?, ?, ?, ?, ?, ?);
SELECT `Employee`.`id` AS `Employee_id`, `Employee`.`employee_id` AS `Employee_employee_id`
  FROM `employees` `Employee`
  WHERE ((`Employee`.`employee_id` IN (?)));

-- EmployeesRepository.leaversBetween
SELECT `s`.`department_id` AS `department`, COUNT(*) AS `count`
  FROM `employment_segments` `s`
  INNER JOIN `employees` `e` ON `e`.`id` = `s`.`employee_id`
  WHERE `e`.`termination_date` <= ? AND `s`.`effective_from` <= `e`.`termination_date` AND (`s`.`effective_to` IS NULL OR `s`.`effective_to` >= `e`.`termination_date`) AND `e`.`termination_date` >= ? AND `e`.`department_id` IN (?, ?)
  GROUP BY `s`.`department_id`;

-- EmployeesRepository.listPage
SELECT COUNT(*)
  FROM employees e
  WHERE (e.department_id IN (?, ?)) AND ((e.status IN (?)));
SELECT e.id, e.employee_id, e.first_name, e.last_name, e.work_email, e.job_title_id, e.department_id, e.status
  FROM employees e
  WHERE (e.department_id IN (?, ?)) AND ((e.status IN (?)))
  ORDER BY e.last_name ASC, e.id ASC
  LIMIT ? OFFSET ?;

-- EmployeesRepository.listPage (updated since)
SELECT COUNT(*)
  FROM employees e
  WHERE (e.department_id IN (?, ?)) AND (e.updated_at >= ?);
SELECT e.id, e.employee_id, e.first_name, e.last_name, e.work_email, e.job_title_id, e.department_id, e.status
  FROM employees e
  WHERE (e.department_id IN (?, ?)) AND (e.updated_at >= ?)
  ORDER BY e.id ASC
  LIMIT ? OFFSET ?;

-- EmployeesRepository.listPageAsOf
SELECT COUNT(*)
  FROM employment_segments s STRAIGHT_JOIN employees e ON s.employee_id = e.id AND s.effective_from <= ? AND (s.effective_to IS NULL OR s.effective_to >= ?)
  WHERE (e.department_id IN (?, ?)) AND (e.joined_date <= ?) AND ((s.department_id IN (?))) AND ((CASE WHEN e.termination_date IS NOT NULL AND e.termination_date <= ? THEN 'Terminated' ELSE 'Active' END IN (?)));
SELECT e.id, e.employee_id, e.first_name, e.last_name, e.work_email, s.job_title_id, s.department_id, CASE WHEN e.termination_date IS NOT NULL AND e.termination_date <= ? THEN 'Terminated' ELSE 'Active' END
  FROM employment_segments s STRAIGHT_JOIN employees e ON s.employee_id = e.id AND s.effective_from <= ? AND (s.effective_to IS NULL OR s.effective_to >= ?)
  WHERE (e.department_id IN (?, ?)) AND (e.joined_date <= ?) AND ((s.department_id IN (?))) AND ((CASE WHEN e.termination_date IS NOT NULL AND e.termination_date <= ? THEN 'Terminated' ELSE 'Active' END IN (?)))
  ORDER BY s.employee_id ASC
  LIMIT ? OFFSET ?;

-- EmployeesRepository.namesOf
SELECT `e`.`id` AS id, `e`.`employee_id` AS code, `e`.`first_name` AS first, `e`.`last_name` AS last
  FROM `employees` `e`
  WHERE `e`.`id` IN (?, ?, ?);

-- EmployeesRepository.payslipFieldsOf
SELECT `e`.`id` AS id, `e`.`employee_id` AS employee_id, `e`.`first_name` AS first_name, `e`.`middle_name` AS middle_name, `e`.`last_name` AS last_name, `e`.`joined_date` AS joined_date, `e`.`work_email` AS work_email, `e`.`job_title_id` AS job_title, `e`.`department_id` AS department, `e`.`pay_grade_id` AS pay_grade
  FROM `employees` `e`
  WHERE `e`.`id` IN (?, ?, ?);

-- EmployeesRepository.supervisorChain
WITH RECURSIVE chain (id, sup, depth) AS ( SELECT id, supervisor_id, 0
  FROM employees
  WHERE id = ?
  UNION ALL SELECT e.id, e.supervisor_id, c.depth + 1
  FROM employees e JOIN chain c ON e.id = c.sup
  WHERE c.depth < 1000 ) SELECT id
  FROM chain;

-- EmployeesRepository.terminationsDue
SELECT `e`.`id` AS `id`
  FROM `employees` `e`
  WHERE `e`.`status` = 'Active' AND `e`.`termination_date` <= ?
  ORDER BY `e`.`id` ASC
  LIMIT 200;

-- EmployeesRepository.withDateOn
SELECT `e`.`id` AS id, `e`.`first_name` AS first, `e`.`last_name` AS last, `e`.`department_id` AS department, `e`.`supervisor_id` AS supervisor, `e`.`birthday` AS date
  FROM `employees` `e`
  WHERE `e`.`status` = 'Active' AND SUBSTR(`e`.`birthday`, 6, 5) IN (?, ?)
  ORDER BY `e`.`id` ASC;

-- EmployeesRepository.workEmailOwners
SELECT `Employee`.`employee_id` AS `Employee_employee_id`, `Employee`.`work_email` AS `Employee_work_email`, `Employee`.`id` AS `Employee_id`
  FROM `employees` `Employee`
  WHERE ((`Employee`.`work_email` IN (?)));
