-- ReferenceRepository.nationalityByName
SELECT "n"."id" AS "n_id", "n"."name" AS "n_name"
  FROM "nationalities" "n"
  WHERE LOWER("n"."name") = LOWER(?);

-- ReferenceRepository.subtree
WITH RECURSIVE sub (id) AS ( SELECT id
  FROM departments
  WHERE id IN (?, ?)
  UNION SELECT d.id
  FROM departments d JOIN sub ON d.parent_id = sub.id ) SELECT id
  FROM sub;
