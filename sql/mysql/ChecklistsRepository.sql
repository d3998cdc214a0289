-- ChecklistsRepository.change
SELECT id, employee_id, effective_date, fields, salary, status, corrects
  FROM employment_changes
  WHERE id = ?;

-- ChecklistsRepository.departments
SELECT id, parent_id, head_id
  FROM departments;

-- ChecklistsRepository.document
SELECT employee_id, document_type_id
  FROM documents
  WHERE id = ?;

-- ChecklistsRepository.documentTypeExists
SELECT 1
  FROM document_types
  WHERE id = ?;

-- ChecklistsRepository.employee
SELECT id, department_id, job_title_id, employment_status_id, supervisor_id, joined_date, termination_date
  FROM employees
  WHERE id = ?;

-- ChecklistsRepository.employeeExists
SELECT 1
  FROM employees
  WHERE id = ?;

-- ChecklistsRepository.page
SELECT COUNT(*) AS `total`
  FROM `checklists` `c`
  INNER JOIN `employees` `e` ON `e`.`id` = `c`.`employee_id`
  WHERE `c`.`employee_id` = ? AND `c`.`status` = ? AND `e`.`department_id` IN (?, ?);
SELECT `c`.`id` AS `c_id`, `c`.`template_id` AS `c_template_id`, `c`.`template_name` AS `c_template_name`, `c`.`employee_id` AS `c_employee_id`, `c`.`trigger_kind` AS `c_trigger_kind`, `c`.`origin` AS `c_origin`, `c`.`effective_date` AS `c_effective_date`, `c`.`status` AS `c_status`, `c`.`cancel_reason` AS `c_cancel_reason`, `c`.`created_at` AS `c_created_at`, `c`.`completed_at` AS `c_completed_at`
  FROM `checklists` `c`
  INNER JOIN `employees` `e` ON `e`.`id` = `c`.`employee_id`
  WHERE `c`.`employee_id` = ? AND `c`.`status` = ? AND `e`.`department_id` IN (?, ?)
  ORDER BY `c`.`id` DESC
  LIMIT 50 OFFSET 0;
