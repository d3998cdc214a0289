-- DocumentsRepository.all
SELECT COUNT(*) AS `total`
  FROM `documents` `d`
  WHERE `d`.`employee_id` IN (SELECT scope_e.id
  FROM employees scope_e
  WHERE scope_e.department_id IN (?, ?)) AND (`d`.`status` IN (?)) AND `d`.`valid_until` <= ?;
SELECT `d`.`id` AS `d_id`, `d`.`employee_id` AS `d_employee_id`, `d`.`document_type_id` AS `d_document_type_id`, `d`.`name` AS `d_name`, `d`.`file_key` AS `d_file_key`, `d`.`file_name` AS `d_file_name`, `d`.`content_type` AS `d_content_type`, `d`.`size` AS `d_size`, `d`.`sha256` AS `d_sha256`, `d`.`valid_from` AS `d_valid_from`, `d`.`valid_until` AS `d_valid_until`, `d`.`status` AS `d_status`, `d`.`version` AS `d_version`, `d`.`notes` AS `d_notes`, `d`.`uploaded_by` AS `d_uploaded_by`, `d`.`created_at` AS `d_created_at`, `d`.`updated_at` AS `d_updated_at`
  FROM `documents` `d`
  WHERE `d`.`id` IN (SELECT page_id
  FROM (SELECT `d`.`id` AS `page_id`
  FROM `documents` `d`
  WHERE `d`.`employee_id` IN (SELECT scope_e.id
  FROM employees scope_e
  WHERE scope_e.department_id IN (?, ?)) AND (`d`.`status` IN (?)) AND `d`.`valid_until` <= ?
  ORDER BY `d`.`valid_until` ASC, `d`.`id` ASC
  LIMIT 50 OFFSET 0) page_ids)
  ORDER BY `d`.`valid_until` ASC, `d`.`id` ASC;

-- DocumentsRepository.byId
SELECT `DocumentRecord`.`id` AS `DocumentRecord_id`, `DocumentRecord`.`employee_id` AS `DocumentRecord_employee_id`, `DocumentRecord`.`document_type_id` AS `DocumentRecord_document_type_id`, `DocumentRecord`.`name` AS `DocumentRecord_name`, `DocumentRecord`.`file_key` AS `DocumentRecord_file_key`, `DocumentRecord`.`file_name` AS `DocumentRecord_file_name`, `DocumentRecord`.`content_type` AS `DocumentRecord_content_type`, `DocumentRecord`.`size` AS `DocumentRecord_size`, `DocumentRecord`.`sha256` AS `DocumentRecord_sha256`, `DocumentRecord`.`valid_from` AS `DocumentRecord_valid_from`, `DocumentRecord`.`valid_until` AS `DocumentRecord_valid_until`, `DocumentRecord`.`status` AS `DocumentRecord_status`, `DocumentRecord`.`version` AS `DocumentRecord_version`, `DocumentRecord`.`notes` AS `DocumentRecord_notes`, `DocumentRecord`.`uploaded_by` AS `DocumentRecord_uploaded_by`, `DocumentRecord`.`created_at` AS `DocumentRecord_created_at`, `DocumentRecord`.`updated_at` AS `DocumentRecord_updated_at`
  FROM `documents` `DocumentRecord`
  WHERE ((`DocumentRecord`.`id` = ?))
  LIMIT 1;

-- DocumentsRepository.claimReminders
INSERT IGNORE INTO `document_reminders`(`id`, `document_id`, `version`, `mark`, `run`, `created_at`)
  VALUES (DEFAULT, ?, ?, ?, ?, DEFAULT);
SELECT `DocumentReminder`.`id` AS `DocumentReminder_id`, `DocumentReminder`.`document_id` AS `DocumentReminder_document_id`, `DocumentReminder`.`version` AS `DocumentReminder_version`, `DocumentReminder`.`mark` AS `DocumentReminder_mark`, `DocumentReminder`.`run` AS `DocumentReminder_run`, `DocumentReminder`.`created_at` AS `DocumentReminder_created_at`
  FROM `document_reminders` `DocumentReminder`
  WHERE ((`DocumentReminder`.`run` = ?))
  ORDER BY `DocumentReminder`.`id` ASC;

-- DocumentsRepository.deleteMany
DELETE
  FROM `documents`
  WHERE `id` IN (?, ?);

-- DocumentsRepository.expiryCandidates
SELECT `d`.`id` AS `d_id`, `d`.`employee_id` AS `d_employee_id`, `d`.`document_type_id` AS `d_document_type_id`, `d`.`name` AS `d_name`, `d`.`valid_until` AS `d_valid_until`, `d`.`status` AS `d_status`, `d`.`version` AS `d_version`
  FROM `documents` `d`
  WHERE `d`.`status` IN ('Valid', 'Expiring') AND `d`.`valid_until` <= ? AND `d`.`id` > ?
  ORDER BY `d_id` ASC
  LIMIT 500;

-- DocumentsRepository.hasDocuments
SELECT 1 AS `row_exists`
  FROM (SELECT 1 AS dummy_column) `dummy_table`
  WHERE EXISTS (SELECT 1
  FROM `documents` `DocumentRecord`
  WHERE ((`DocumentRecord`.`employee_id` = ?)))
  LIMIT 1;

-- DocumentsRepository.keyInUse
SELECT 1 AS `row_exists`
  FROM (SELECT 1 AS dummy_column) `dummy_table`
  WHERE EXISTS (SELECT 1
  FROM `document_versions` `DocumentVersion`
  WHERE ((`DocumentVersion`.`file_key` = ?)))
  LIMIT 1;

-- DocumentsRepository.lockOne
SELECT `DocumentRecord`.`id` AS `DocumentRecord_id`, `DocumentRecord`.`employee_id` AS `DocumentRecord_employee_id`, `DocumentRecord`.`document_type_id` AS `DocumentRecord_document_type_id`, `DocumentRecord`.`name` AS `DocumentRecord_name`, `DocumentRecord`.`file_key` AS `DocumentRecord_file_key`, `DocumentRecord`.`file_name` AS `DocumentRecord_file_name`, `DocumentRecord`.`content_type` AS `DocumentRecord_content_type`, `DocumentRecord`.`size` AS `DocumentRecord_size`, `DocumentRecord`.`sha256` AS `DocumentRecord_sha256`, `DocumentRecord`.`valid_from` AS `DocumentRecord_valid_from`, `DocumentRecord`.`valid_until` AS `DocumentRecord_valid_until`, `DocumentRecord`.`status` AS `DocumentRecord_status`, `DocumentRecord`.`version` AS `DocumentRecord_version`, `DocumentRecord`.`notes` AS `DocumentRecord_notes`, `DocumentRecord`.`uploaded_by` AS `DocumentRecord_uploaded_by`, `DocumentRecord`.`created_at` AS `DocumentRecord_created_at`, `DocumentRecord`.`updated_at` AS `DocumentRecord_updated_at`
  FROM `documents` `DocumentRecord`
  WHERE ((`DocumentRecord`.`id` = ?) AND (`DocumentRecord`.`employee_id` = ?))
  LIMIT 1 FOR UPDATE;

-- DocumentsRepository.ofEmployee
SELECT COUNT(*) AS `total`
  FROM `documents` `d`
  WHERE `d`.`employee_id` = ? AND `d`.`document_type_id` IN (?, ?);
SELECT `d`.`id` AS `d_id`, `d`.`employee_id` AS `d_employee_id`, `d`.`document_type_id` AS `d_document_type_id`, `d`.`name` AS `d_name`, `d`.`file_key` AS `d_file_key`, `d`.`file_name` AS `d_file_name`, `d`.`content_type` AS `d_content_type`, `d`.`size` AS `d_size`, `d`.`sha256` AS `d_sha256`, `d`.`valid_from` AS `d_valid_from`, `d`.`valid_until` AS `d_valid_until`, `d`.`status` AS `d_status`, `d`.`version` AS `d_version`, `d`.`notes` AS `d_notes`, `d`.`uploaded_by` AS `d_uploaded_by`, `d`.`created_at` AS `d_created_at`, `d`.`updated_at` AS `d_updated_at`
  FROM `documents` `d`
  WHERE `d`.`employee_id` = ? AND `d`.`document_type_id` IN (?, ?)
  ORDER BY `d`.`id` DESC
  LIMIT 50 OFFSET 0;

-- DocumentsRepository.one
SELECT `DocumentRecord`.`id` AS `DocumentRecord_id`, `DocumentRecord`.`employee_id` AS `DocumentRecord_employee_id`, `DocumentRecord`.`document_type_id` AS `DocumentRecord_document_type_id`, `DocumentRecord`.`name` AS `DocumentRecord_name`, `DocumentRecord`.`file_key` AS `DocumentRecord_file_key`, `DocumentRecord`.`file_name` AS `DocumentRecord_file_name`, `DocumentRecord`.`content_type` AS `DocumentRecord_content_type`, `DocumentRecord`.`size` AS `DocumentRecord_size`, `DocumentRecord`.`sha256` AS `DocumentRecord_sha256`, `DocumentRecord`.`valid_from` AS `DocumentRecord_valid_from`, `DocumentRecord`.`valid_until` AS `DocumentRecord_valid_until`, `DocumentRecord`.`status` AS `DocumentRecord_status`, `DocumentRecord`.`version` AS `DocumentRecord_version`, `DocumentRecord`.`notes` AS `DocumentRecord_notes`, `DocumentRecord`.`uploaded_by` AS `DocumentRecord_uploaded_by`, `DocumentRecord`.`created_at` AS `DocumentRecord_created_at`, `DocumentRecord`.`updated_at` AS `DocumentRecord_updated_at`
  FROM `documents` `DocumentRecord`
  WHERE ((`DocumentRecord`.`id` = ?) AND (`DocumentRecord`.`employee_id` = ?))
  LIMIT 1;

-- DocumentsRepository.pendingRemovals
SELECT `DocumentFileRemoval`.`id` AS `DocumentFileRemoval_id`, `DocumentFileRemoval`.`file_key` AS `DocumentFileRemoval_file_key`, `DocumentFileRemoval`.`attempts` AS `DocumentFileRemoval_attempts`, `DocumentFileRemoval`.`created_at` AS `DocumentFileRemoval_created_at`
  FROM `document_file_removals` `DocumentFileRemoval`
  WHERE ((`DocumentFileRemoval`.`id` > ?))
  ORDER BY `DocumentFileRemoval`.`id` ASC
  LIMIT 100;

-- DocumentsRepository.queueFileRemovals
INSERT INTO document_file_removals (file_key, attempts, created_at) SELECT v.file_key, 0, CURRENT_TIMESTAMP
  FROM document_versions v
  INNER JOIN documents d ON d.id = v.document_id
  WHERE d.employee_id = ?;

-- DocumentsRepository.reminderIds
SELECT `DocumentReminder`.`id` AS `DocumentReminder_id`
  FROM `document_reminders` `DocumentReminder`
  WHERE ((`DocumentReminder`.`document_id` = ?));

-- DocumentsRepository.removalsDone
DELETE
  FROM `document_file_removals`
  WHERE `id` IN (?, ?);

-- DocumentsRepository.removalsFailed
UPDATE `document_file_removals`
  SET `attempts` = `attempts` + 1
  WHERE `id` IN (?, ?);

-- DocumentsRepository.setStatus
UPDATE `documents`
  SET `status` = ?
  WHERE `id` IN (?, ?);

-- DocumentsRepository.staleExpiring
SELECT `d`.`id` AS `d_id`, `d`.`employee_id` AS `d_employee_id`, `d`.`document_type_id` AS `d_document_type_id`, `d`.`name` AS `d_name`, `d`.`valid_until` AS `d_valid_until`, `d`.`status` AS `d_status`, `d`.`version` AS `d_version`
  FROM `documents` `d`
  WHERE `d`.`status` = 'Expiring' AND (`d`.`valid_until` > ? OR `d`.`valid_until` IS NULL) AND `d`.`id` > ?
  ORDER BY `d_id` ASC
  LIMIT 500;

-- DocumentsRepository.version
SELECT `DocumentVersion`.`id` AS `DocumentVersion_id`, `DocumentVersion`.`document_id` AS `DocumentVersion_document_id`, `DocumentVersion`.`version` AS `DocumentVersion_version`, `DocumentVersion`.`file_key` AS `DocumentVersion_file_key`, `DocumentVersion`.`file_name` AS `DocumentVersion_file_name`, `DocumentVersion`.`content_type` AS `DocumentVersion_content_type`, `DocumentVersion`.`size` AS `DocumentVersion_size`, `DocumentVersion`.`sha256` AS `DocumentVersion_sha256`, `DocumentVersion`.`valid_from` AS `DocumentVersion_valid_from`, `DocumentVersion`.`valid_until` AS `DocumentVersion_valid_until`, `DocumentVersion`.`uploaded_by` AS `DocumentVersion_uploaded_by`, `DocumentVersion`.`created_at` AS `DocumentVersion_created_at`
  FROM `document_versions` `DocumentVersion`
  WHERE ((`DocumentVersion`.`document_id` = ?) AND (`DocumentVersion`.`version` = ?))
  LIMIT 1;

-- DocumentsRepository.versions
SELECT `DocumentVersion`.`id` AS `DocumentVersion_id`, `DocumentVersion`.`document_id` AS `DocumentVersion_document_id`, `DocumentVersion`.`version` AS `DocumentVersion_version`, `DocumentVersion`.`file_key` AS `DocumentVersion_file_key`, `DocumentVersion`.`file_name` AS `DocumentVersion_file_name`, `DocumentVersion`.`content_type` AS `DocumentVersion_content_type`, `DocumentVersion`.`size` AS `DocumentVersion_size`, `DocumentVersion`.`sha256` AS `DocumentVersion_sha256`, `DocumentVersion`.`valid_from` AS `DocumentVersion_valid_from`, `DocumentVersion`.`valid_until` AS `DocumentVersion_valid_until`, `DocumentVersion`.`uploaded_by` AS `DocumentVersion_uploaded_by`, `DocumentVersion`.`created_at` AS `DocumentVersion_created_at`
  FROM `document_versions` `DocumentVersion`
  WHERE ((`DocumentVersion`.`document_id` = ?))
  ORDER BY `DocumentVersion`.`version` DESC;
