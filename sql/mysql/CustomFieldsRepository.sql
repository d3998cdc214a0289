-- CustomFieldsRepository.visibleOne
SELECT `f`.`id` AS `f_id`, `f`.`field_key` AS `f_field_key`, `f`.`label` AS `f_label`, `f`.`type` AS `f_type`, `f`.`options` AS `f_options`, `f`.`required` AS `f_required`, `f`.`is_unique` AS `f_is_unique`, `f`.`dated` AS `f_dated`, `f`.`pii` AS `f_pii`, `f`.`visible_to` AS `f_visible_to`, `f`.`editable_by` AS `f_editable_by`, `f`.`in_list` AS `f_in_list`, `f`.`position` AS `f_position`, `f`.`description` AS `f_description`
  FROM `custom_fields` `f`
  WHERE (`f`.`visible_to` LIKE ? OR `f`.`visible_to` LIKE ?) AND `f`.`id` = ?;
