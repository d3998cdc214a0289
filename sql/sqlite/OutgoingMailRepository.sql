-- OutgoingMailRepository.due
SELECT "OutgoingMail"."id" AS "OutgoingMail_id", "OutgoingMail"."request_id" AS "OutgoingMail_request_id", "OutgoingMail"."send_after" AS "OutgoingMail_send_after"
  FROM "outgoing_mail" "OutgoingMail"
  WHERE (((("OutgoingMail"."status" = ?) AND ("OutgoingMail"."send_after" IS NULL))) OR ((("OutgoingMail"."status" = ?) AND ("OutgoingMail"."send_after" <= ?))))
  ORDER BY "OutgoingMail_id" ASC
  LIMIT 500;

-- OutgoingMailRepository.one
SELECT "OutgoingMail"."id" AS "OutgoingMail_id", "OutgoingMail"."purpose" AS "OutgoingMail_purpose", "OutgoingMail"."ref" AS "OutgoingMail_ref", "OutgoingMail"."request_id" AS "OutgoingMail_request_id", "OutgoingMail"."status" AS "OutgoingMail_status", "OutgoingMail"."address" AS "OutgoingMail_address", "OutgoingMail"."document_id" AS "OutgoingMail_document_id", "OutgoingMail"."send_after" AS "OutgoingMail_send_after", "OutgoingMail"."error" AS "OutgoingMail_error", "OutgoingMail"."requested_by" AS "OutgoingMail_requested_by", "OutgoingMail"."created_at" AS "OutgoingMail_created_at", "OutgoingMail"."started_at" AS "OutgoingMail_started_at", "OutgoingMail"."finished_at" AS "OutgoingMail_finished_at"
  FROM "outgoing_mail" "OutgoingMail"
  WHERE (("OutgoingMail"."id" = 1))
  LIMIT 1;

-- OutgoingMailRepository.queuedOf
SELECT "OutgoingMail"."id" AS "OutgoingMail_id", "OutgoingMail"."request_id" AS "OutgoingMail_request_id", "OutgoingMail"."send_after" AS "OutgoingMail_send_after"
  FROM "outgoing_mail" "OutgoingMail"
  WHERE (("OutgoingMail"."purpose" = ?) AND ("OutgoingMail"."ref" IN (?, ?)) AND ("OutgoingMail"."status" = ?) AND ("OutgoingMail"."request_id" = ?))
  ORDER BY "OutgoingMail_id" ASC;
