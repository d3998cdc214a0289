-- EventsFeedRepository.page
SELECT `o`.`seq` AS seq, `o`.`event` AS event, `o`.`employee_id` AS employee_id, `o`.`payload` AS payload, `o`.`created_at` AS created_at
  FROM `outbox_events` `o`
  INNER JOIN `employees` `e` ON `e`.`id` = `o`.`employee_id`
  WHERE `o`.`seq` > ? AND `o`.`event` IN (?, ?) AND `o`.`employee_id` IS NOT NULL AND (`e`.`supervisor_id` = ? OR `e`.`id` = ?)
  ORDER BY `o`.`seq` ASC
  LIMIT 500;
