-- EmployeesRepository.listPage
SELECT COUNT(*)
  FROM employees e
  WHERE (e.department_id IN (?, ?)) AND ((e.status IN (?)));
SELECT e.id, e.employee_id, e.first_name, e.last_name, e.work_email, e.job_title_id, e.department_id, e.status
  FROM employees e
  WHERE (e.department_id IN (?, ?)) AND ((e.status IN (?)))
  ORDER BY e.last_name ASC, e.id ASC
  LIMIT ? OFFSET ?;

-- EmployeesRepository.namesOf
SELECT "e"."id" AS id, "e"."employee_id" AS code, "e"."first_name" AS first, "e"."last_name" AS last
  FROM "employees" "e"
  WHERE "e"."id" IN (?, ?, ?);

-- EmployeesRepository.payslipFieldsOf
SELECT "e"."id" AS id, "e"."employee_id" AS employee_id, "e"."first_name" AS first_name, "e"."middle_name" AS middle_name, "e"."last_name" AS last_name, "e"."joined_date" AS joined_date, "e"."work_email" AS work_email, "e"."job_title_id" AS job_title, "e"."department_id" AS department, "e"."pay_grade_id" AS pay_grade
  FROM "employees" "e"
  WHERE "e"."id" IN (?, ?, ?);

-- EmployeesRepository.supervisorChain
WITH RECURSIVE chain (id, sup, depth) AS ( SELECT id, supervisor_id, 0
  FROM employees
  WHERE id = ?
  UNION ALL SELECT e.id, e.supervisor_id, c.depth + 1
  FROM employees e JOIN chain c ON e.id = c.sup
  WHERE c.depth < 1000 ) SELECT id
  FROM chain;
