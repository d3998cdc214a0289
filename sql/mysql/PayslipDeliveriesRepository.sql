-- PayslipDeliveriesRepository.failedIn
SELECT COUNT(1) AS `cnt`
  FROM `payslips` `Payslip`
  WHERE ((`Payslip`.`payroll_id` = ?) AND (`Payslip`.`delivery_status` = ?));

-- PayslipDeliveriesRepository.oneToSend
SELECT `s`.`id` AS `s_id`, `s`.`employee_id` AS `s_employee_id`, `s`.`document_id` AS `s_document_id`, `s`.`delivery_status` AS `s_delivery_status`
  FROM `payslips` `s`
  WHERE `s`.`payroll_id` = ? AND `s`.`employee_id` IN (SELECT scope_e.id
  FROM employees scope_e
  WHERE scope_e.department_id IN (?, ?)) AND `s`.`id` = ?;

-- PayslipDeliveriesRepository.payslip
SELECT `Payslip`.`id` AS `Payslip_id`, `Payslip`.`payroll_id` AS `Payslip_payroll_id`, `Payslip`.`employee_id` AS `Payslip_employee_id`, `Payslip`.`html` AS `Payslip_html`, `Payslip`.`document_id` AS `Payslip_document_id`, `Payslip`.`delivery_status` AS `Payslip_delivery_status`, `Payslip`.`delivered_at` AS `Payslip_delivered_at`, `Payslip`.`delivery_error` AS `Payslip_delivery_error`, `Payslip`.`created_at` AS `Payslip_created_at`
  FROM `payslips` `Payslip`
  WHERE ((`Payslip`.`id` = ?))
  LIMIT 1;

-- PayslipDeliveriesRepository.setStatus
UPDATE `payslips`
  SET `delivery_status` = ?, `delivery_error` = ?
  WHERE `id` IN (?, ?);

-- PayslipDeliveriesRepository.toSend
SELECT `s`.`id` AS `s_id`, `s`.`employee_id` AS `s_employee_id`, `s`.`document_id` AS `s_document_id`, `s`.`delivery_status` AS `s_delivery_status`
  FROM `payslips` `s`
  WHERE `s`.`payroll_id` = ? AND `s`.`employee_id` IN (SELECT scope_e.id
  FROM employees scope_e
  WHERE scope_e.department_id IN (?, ?)) AND `s`.`employee_id` IN (?, ?) AND `s`.`id` > ?
  ORDER BY `s_id` ASC
  LIMIT 200;

-- PayslipDeliveriesRepository.withoutPdf
SELECT COUNT(1) AS `cnt`
  FROM `payslips` `s`
  WHERE `s`.`payroll_id` = ? AND `s`.`employee_id` IN (SELECT scope_e.id
  FROM employees scope_e
  WHERE scope_e.department_id IN (?, ?)) AND `s`.`employee_id` IN (?, ?) AND `s`.`document_id` IS NULL;
