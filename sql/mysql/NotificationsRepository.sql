-- NotificationsRepository.byIds
SELECT `Notification`.`id` AS `Notification_id`, `Notification`.`user_id` AS `Notification_user_id`, `Notification`.`kind` AS `Notification_kind`, `Notification`.`title` AS `Notification_title`, `Notification`.`body` AS `Notification_body`, `Notification`.`link` AS `Notification_link`, `Notification`.`is_read` AS `Notification_is_read`, `Notification`.`source_key` AS `Notification_source_key`, `Notification`.`created_at` AS `Notification_created_at`, `Notification`.`read_at` AS `Notification_read_at`
  FROM `notifications` `Notification`
  WHERE ((`Notification`.`id` IN (?, ?)))
  ORDER BY `Notification`.`id` ASC;

-- NotificationsRepository.feed
SELECT COUNT(*) AS `total`
  FROM `notifications` `n`
  WHERE `n`.`user_id` = ? AND (`n`.`is_read` IN (?));
SELECT `n`.`id` AS `n_id`, `n`.`user_id` AS `n_user_id`, `n`.`kind` AS `n_kind`, `n`.`title` AS `n_title`, `n`.`body` AS `n_body`, `n`.`link` AS `n_link`, `n`.`is_read` AS `n_is_read`, `n`.`source_key` AS `n_source_key`, `n`.`created_at` AS `n_created_at`, `n`.`read_at` AS `n_read_at`
  FROM `notifications` `n`
  WHERE `n`.`user_id` = ? AND (`n`.`is_read` IN (?))
  ORDER BY `n`.`id` DESC
  LIMIT 50 OFFSET 0;

-- NotificationsRepository.markAllRead
UPDATE `notifications`
  SET `is_read` = ?, `read_at` = ?
  WHERE (`user_id` = ? AND `is_read` = ?);

-- NotificationsRepository.markRead
SELECT `Notification`.`id` AS `Notification_id`, `Notification`.`is_read` AS `Notification_is_read`
  FROM `notifications` `Notification`
  WHERE ((`Notification`.`id` = ?) AND (`Notification`.`user_id` = ?))
  LIMIT 1;

-- NotificationsRepository.newestId
SELECT `Notification`.`id` AS `Notification_id`
  FROM `notifications` `Notification`
  WHERE ((`Notification`.`user_id` = ?))
  ORDER BY `Notification_id` DESC
  LIMIT 1;

-- NotificationsRepository.preferencesOf
SELECT `NotificationPreference`.`user_id` AS `NotificationPreference_user_id`, `NotificationPreference`.`kind` AS `NotificationPreference_kind`, `NotificationPreference`.`email` AS `NotificationPreference_email`, `NotificationPreference`.`in_app` AS `NotificationPreference_in_app`, `NotificationPreference`.`frequency` AS `NotificationPreference_frequency`
  FROM `notification_preferences` `NotificationPreference`
  WHERE ((`NotificationPreference`.`user_id` IN (?, ?)));

-- NotificationsRepository.since
SELECT `Notification`.`id` AS `Notification_id`, `Notification`.`user_id` AS `Notification_user_id`, `Notification`.`kind` AS `Notification_kind`, `Notification`.`title` AS `Notification_title`, `Notification`.`body` AS `Notification_body`, `Notification`.`link` AS `Notification_link`, `Notification`.`is_read` AS `Notification_is_read`, `Notification`.`source_key` AS `Notification_source_key`, `Notification`.`created_at` AS `Notification_created_at`, `Notification`.`read_at` AS `Notification_read_at`
  FROM `notifications` `Notification`
  WHERE ((`Notification`.`user_id` = ?) AND (`Notification`.`id` > ?))
  ORDER BY `Notification`.`id` ASC
  LIMIT 100;

-- NotificationsRepository.templates
SELECT COUNT(*) AS `total`
  FROM `notification_templates` `t`
  WHERE (`t`.`kind` IN (?));
SELECT `t`.`id` AS `t_id`, `t`.`kind` AS `t_kind`, `t`.`lang` AS `t_lang`, `t`.`subject` AS `t_subject`, `t`.`html` AS `t_html`, `t`.`text` AS `t_text`, `t`.`updated_at` AS `t_updated_at`
  FROM `notification_templates` `t`
  WHERE (`t`.`kind` IN (?))
  ORDER BY `t`.`id` ASC
  LIMIT 50 OFFSET 0;

-- NotificationsRepository.unread
SELECT COUNT(1) AS `cnt`
  FROM `notifications` `Notification`
  WHERE ((`Notification`.`user_id` = ?) AND (`Notification`.`is_read` = ?));

-- NotificationsRepository.userSettingsOf
SELECT `NotificationUserSettings`.`user_id` AS `NotificationUserSettings_user_id`, `NotificationUserSettings`.`digest_hour` AS `NotificationUserSettings_digest_hour`, `NotificationUserSettings`.`time_zone` AS `NotificationUserSettings_time_zone`
  FROM `notification_user_settings` `NotificationUserSettings`
  WHERE ((`NotificationUserSettings`.`user_id` IN (?, ?)));
