-- CalendarsRepository.withHolidays
SELECT `c`.`id` AS `id`, `h`.`date` AS `date`, `h`.`name` AS `name`, `h`.`fraction` AS `fraction`, `c`.`work_week` AS `week`
  FROM `calendars` `c`
  LEFT JOIN `holidays` `h` ON `h`.`calendar_id` = `c`.`id` AND `h`.`date` BETWEEN ? AND ?
  WHERE `c`.`id` IN (?, ?);
