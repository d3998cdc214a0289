-- CustomFieldValuesRepository.batchOf
SELECT "v"."field_id" AS "v_field_id", "v"."employee_id" AS "v_employee_id", "v"."item" AS "v_item", "v"."value_text" AS "v_value_text"
  FROM "custom_field_values" "v"
  WHERE "v"."field_id" = 1 AND "v"."employee_id" > 0 AND "v"."employee_id" <= (SELECT MAX(b.employee_id)
  FROM (SELECT DISTINCT w.employee_id
  FROM custom_field_values w
  WHERE w.field_id = 1 AND w.employee_id > 0
  ORDER BY w.employee_id
  LIMIT 1000) b)
  ORDER BY "v"."employee_id" ASC, "v_item" ASC;

-- CustomFieldValuesRepository.clearReferencesTo
DELETE
  FROM "custom_field_values"
  WHERE "value_number" = 10 AND "field_id" IN (SELECT "f"."id" AS "f_id"
  FROM "custom_fields" "f"
  WHERE "f"."type" = 'employee');

-- CustomFieldValuesRepository.optionUse
SELECT "v"."value_text" AS "option", COUNT(*) AS "n"
  FROM "custom_field_values" "v"
  WHERE "v"."field_id" = 1 AND "v"."value_text" IN (?, ?)
  GROUP BY "v"."value_text";

-- CustomFieldValuesRepository.replaceMany
DELETE
  FROM "custom_field_values"
  WHERE ("employee_id" = 10 AND "field_id" IN (?));
INSERT INTO "custom_field_values" ("employee_id", "field_id", "item", "value_text", "value_key", "value_number", "unique_key")
  VALUES (?, ?, ?, ?, ?, ?, ?);

-- CustomFieldValuesRepository.uniqueOwners
SELECT "CustomFieldValue"."employee_id" AS "CustomFieldValue_employee_id", "CustomFieldValue"."unique_key" AS "CustomFieldValue_unique_key", "CustomFieldValue"."field_id" AS "CustomFieldValue_field_id", "CustomFieldValue"."item" AS "CustomFieldValue_item"
  FROM "custom_field_values" "CustomFieldValue"
  WHERE (("CustomFieldValue"."field_id" = 1) AND ("CustomFieldValue"."unique_key" IN (?, ?)));

-- CustomFieldValuesRepository.valuesOf
SELECT field_id, employee_id, item, value_text
  FROM custom_field_values
  WHERE employee_id IN (?, ?) AND field_id IN (?, ?);

-- CustomFieldValuesRepository.valuesOf (most fields)
SELECT field_id, employee_id, item, value_text
  FROM custom_field_values
  WHERE employee_id IN (?, ?);

-- CustomFieldValuesRepository.valuesOf (one employee)
SELECT field_id, employee_id, item, value_text
  FROM custom_field_values
  WHERE employee_id = ?;
