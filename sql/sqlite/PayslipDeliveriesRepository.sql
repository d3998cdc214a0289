-- PayslipDeliveriesRepository.claim
UPDATE "payslip_deliveries"
  SET "status" = ?, "started_at" = ?
  WHERE ("id" = 1 AND "status" = ?);

-- PayslipDeliveriesRepository.due
SELECT "PayslipDelivery"."id" AS "PayslipDelivery_id", "PayslipDelivery"."request_id" AS "PayslipDelivery_request_id"
  FROM "payslip_deliveries" "PayslipDelivery"
  WHERE (((("PayslipDelivery"."status" = ?) AND ("PayslipDelivery"."send_after" IS NULL))) OR ((("PayslipDelivery"."status" = ?) AND ("PayslipDelivery"."send_after" <= ?))))
  ORDER BY "PayslipDelivery_id" ASC
  LIMIT 500;

-- PayslipDeliveriesRepository.failedIn
SELECT COUNT(1) AS "cnt"
  FROM "payslips" "Payslip"
  WHERE (("Payslip"."payroll_id" = 1) AND ("Payslip"."delivery_status" = ?));

-- PayslipDeliveriesRepository.ofRequest
SELECT "PayslipDelivery"."id" AS "PayslipDelivery_id", "PayslipDelivery"."payslip_id" AS "PayslipDelivery_payslip_id", "PayslipDelivery"."request_id" AS "PayslipDelivery_request_id", "PayslipDelivery"."status" AS "PayslipDelivery_status", "PayslipDelivery"."address" AS "PayslipDelivery_address", "PayslipDelivery"."send_after" AS "PayslipDelivery_send_after", "PayslipDelivery"."error" AS "PayslipDelivery_error", "PayslipDelivery"."requested_by" AS "PayslipDelivery_requested_by", "PayslipDelivery"."created_at" AS "PayslipDelivery_created_at", "PayslipDelivery"."started_at" AS "PayslipDelivery_started_at", "PayslipDelivery"."finished_at" AS "PayslipDelivery_finished_at"
  FROM "payslip_deliveries" "PayslipDelivery"
  WHERE (("PayslipDelivery"."request_id" = ?))
  ORDER BY "PayslipDelivery"."id" ASC;

-- PayslipDeliveriesRepository.one
SELECT "PayslipDelivery"."id" AS "PayslipDelivery_id", "PayslipDelivery"."payslip_id" AS "PayslipDelivery_payslip_id", "PayslipDelivery"."request_id" AS "PayslipDelivery_request_id", "PayslipDelivery"."status" AS "PayslipDelivery_status", "PayslipDelivery"."address" AS "PayslipDelivery_address", "PayslipDelivery"."send_after" AS "PayslipDelivery_send_after", "PayslipDelivery"."error" AS "PayslipDelivery_error", "PayslipDelivery"."requested_by" AS "PayslipDelivery_requested_by", "PayslipDelivery"."created_at" AS "PayslipDelivery_created_at", "PayslipDelivery"."started_at" AS "PayslipDelivery_started_at", "PayslipDelivery"."finished_at" AS "PayslipDelivery_finished_at"
  FROM "payslip_deliveries" "PayslipDelivery"
  WHERE (("PayslipDelivery"."id" = 1))
  LIMIT 1;

-- PayslipDeliveriesRepository.payslip
SELECT "Payslip"."id" AS "Payslip_id", "Payslip"."payroll_id" AS "Payslip_payroll_id", "Payslip"."employee_id" AS "Payslip_employee_id", "Payslip"."html" AS "Payslip_html", "Payslip"."document_id" AS "Payslip_document_id", "Payslip"."delivery_status" AS "Payslip_delivery_status", "Payslip"."delivered_at" AS "Payslip_delivered_at", "Payslip"."delivery_error" AS "Payslip_delivery_error", "Payslip"."created_at" AS "Payslip_created_at"
  FROM "payslips" "Payslip"
  WHERE (("Payslip"."id" = 1))
  LIMIT 1;

-- PayslipDeliveriesRepository.requeue
UPDATE "payslip_deliveries"
  SET "status" = ?, "error" = ?
  WHERE ("id" = 1 AND "status" = ?);

-- PayslipDeliveriesRepository.setStatus
UPDATE "payslips"
  SET "delivery_status" = ?, "delivery_error" = ?
  WHERE "id" IN (1, 2);

-- PayslipDeliveriesRepository.toSend
SELECT "s"."id" AS "s_id", "s"."employee_id" AS "s_employee_id", "s"."document_id" AS "s_document_id", "s"."delivery_status" AS "s_delivery_status"
  FROM "payslips" "s"
  WHERE "s"."payroll_id" = 1 AND "s"."employee_id" IN (SELECT scope_e.id
  FROM employees scope_e
  WHERE scope_e.department_id IN (?, ?)) AND "s"."employee_id" IN (?, ?)
  ORDER BY "s_id" ASC;
