-- TimesheetsRepository.approvedEntries
SELECT `t`.`id` AS `id`, `t`.`minutes` AS `minutes`, `t`.`employee_id` AS `employee`
  FROM `time_entries` `t`
  WHERE `t`.`employee_id` IN (?, ?) AND `t`.`status` = 'Approved' AND `t`.`date` BETWEEN ? AND ? AND `t`.`project_id` = ?
  ORDER BY `t`.`id` ASC;

-- TimesheetsRepository.overlaps
SELECT 1 AS `row_exists`
  FROM (SELECT 1 AS dummy_column) `dummy_table`
  WHERE EXISTS (SELECT 1
  FROM `time_entries` `t`
  WHERE `t`.`employee_id` = ? AND `t`.`date` = ? AND `t`.`start_time` < ? AND `t`.`end_time` > ? AND `t`.`id` <> ?)
  LIMIT 1;

-- TimesheetsRepository.silentProjectWorkers
SELECT DISTINCT t.employee_id AS id
  FROM time_entries t JOIN employees e ON e.id = t.employee_id AND e.status = 'Active'
  WHERE t.date >= ? AND t.date < ? AND t.project_id IS NOT NULL AND NOT EXISTS ( SELECT 1
  FROM time_entries w
  WHERE w.employee_id = t.employee_id AND w.status IN ('Submitted', 'Approved') AND w.date >= ? AND w.date <= ?)
  ORDER BY t.employee_id;
