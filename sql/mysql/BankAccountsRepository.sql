-- BankAccountsRepository.primaryOf
SELECT `EmployeeBankAccount`.`employee_id` AS `EmployeeBankAccount_employee_id`, `EmployeeBankAccount`.`iban` AS `EmployeeBankAccount_iban`, `EmployeeBankAccount`.`bic` AS `EmployeeBankAccount_bic`, `EmployeeBankAccount`.`holder_name` AS `EmployeeBankAccount_holder_name`, `EmployeeBankAccount`.`id` AS `EmployeeBankAccount_id`
  FROM `employee_bank_accounts` `EmployeeBankAccount`
  WHERE ((`EmployeeBankAccount`.`employee_id` IN (?, ?)) AND (`EmployeeBankAccount`.`is_primary` = ?));
