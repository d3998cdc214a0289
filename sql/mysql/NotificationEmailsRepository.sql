-- NotificationEmailsRepository.claimDigest
UPDATE `notification_emails`
  SET `status` = ?, `batch_key` = ?
  WHERE (`user_id` = ? AND `status` = ? AND `mode` = ? AND `due_at` <= ?);

-- NotificationEmailsRepository.claimOne
UPDATE `notification_emails`
  SET `status` = ?, `batch_key` = ?
  WHERE (`id` = ? AND `status` = ? AND `mode` = ?);

-- NotificationEmailsRepository.claimed
SELECT `NotificationEmail`.`id` AS `NotificationEmail_id`, `NotificationEmail`.`user_id` AS `NotificationEmail_user_id`, `NotificationEmail`.`kind` AS `NotificationEmail_kind`, `NotificationEmail`.`source_key` AS `NotificationEmail_source_key`, `NotificationEmail`.`title` AS `NotificationEmail_title`, `NotificationEmail`.`body` AS `NotificationEmail_body`, `NotificationEmail`.`link` AS `NotificationEmail_link`, `NotificationEmail`.`mode` AS `NotificationEmail_mode`, `NotificationEmail`.`status` AS `NotificationEmail_status`, `NotificationEmail`.`due_at` AS `NotificationEmail_due_at`, `NotificationEmail`.`batch_key` AS `NotificationEmail_batch_key`, `NotificationEmail`.`error` AS `NotificationEmail_error`, `NotificationEmail`.`created_at` AS `NotificationEmail_created_at`, `NotificationEmail`.`sent_at` AS `NotificationEmail_sent_at`
  FROM `notification_emails` `NotificationEmail`
  WHERE ((`NotificationEmail`.`batch_key` = ?))
  ORDER BY `NotificationEmail`.`id` ASC;

-- NotificationEmailsRepository.dueDigestUsers
SELECT DISTINCT `e`.`user_id` AS `user`
  FROM `notification_emails` `e`
  WHERE `e`.`status` = 'queued' AND `e`.`mode` = 'digest' AND `e`.`due_at` <= ?
  LIMIT 1000;

-- NotificationEmailsRepository.dueImmediate
SELECT `NotificationEmail`.`id` AS `NotificationEmail_id`
  FROM `notification_emails` `NotificationEmail`
  WHERE ((`NotificationEmail`.`status` = ?) AND (`NotificationEmail`.`mode` = ?) AND (`NotificationEmail`.`due_at` <= ?))
  ORDER BY `NotificationEmail_id` ASC
  LIMIT 1000;

-- NotificationEmailsRepository.immediateSince
SELECT `e`.`user_id` AS `user`, COUNT(*) AS `n`
  FROM `notification_emails` `e`
  WHERE `e`.`user_id` IN (?, ?) AND `e`.`mode` = 'immediate' AND `e`.`created_at` >= ?
  GROUP BY `e`.`user_id`;

-- NotificationEmailsRepository.pendingDigests
SELECT `e`.`user_id` AS `user`, MIN(`e`.`due_at`) AS `due`
  FROM `notification_emails` `e`
  WHERE `e`.`user_id` IN (?, ?) AND `e`.`mode` = 'digest' AND `e`.`status` = 'queued'
  GROUP BY `e`.`user_id`;

-- NotificationEmailsRepository.settle
UPDATE `notification_emails`
  SET `status` = ?, `error` = ?, `sent_at` = ?
  WHERE (`batch_key` = ? AND `status` = ?);
