-- ReferenceRepository.ancestors
WITH RECURSIVE up (id, parent_id) AS ( SELECT id, parent_id
  FROM departments
  WHERE id = ?
  UNION SELECT d.id, d.parent_id
  FROM departments d JOIN up ON d.id = up.parent_id ) SELECT id
  FROM up;

-- ReferenceRepository.employeeExists
SELECT 1
  FROM employees
  WHERE id = ?;

-- ReferenceRepository.nameOf
SELECT name
  FROM nationalities
  WHERE id = ?;

-- ReferenceRepository.nationalityByName
SELECT `n`.`id` AS `n_id`, `n`.`name` AS `n_name`
  FROM `nationalities` `n`
  WHERE LOWER(`n`.`name`) = LOWER(?);

-- ReferenceRepository.subtree
WITH RECURSIVE sub (id) AS ( SELECT id
  FROM departments
  WHERE id IN (?, ?)
  UNION SELECT d.id
  FROM departments d JOIN sub ON d.parent_id = sub.id ) SELECT id
  FROM sub;
