-- The benchmark audit written once by hand as one PostgreSQL SELECT (issue 16's reference
-- for pushdown): every property and record rule of rules/people.yml counted in one scan of
-- `people` (text columns, as Benchmarks/postgres.py loads gen.py's data), with the type-first
-- semantics of ../shared/bench/rules.md. Unique and the reference to departments are
-- counted with a GROUP BY and a join in the same statement, as a person would write them.
WITH p AS (
  SELECT *,
    id ~ '^-?[0-9]+$' AS id_ok,
    birthday ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'
      AND substr(birthday, 6, 2)::int BETWEEN 1 AND 12 AND substr(birthday, 9, 2)::int BETWEEN 1 AND CASE WHEN substr(birthday, 6, 2)::int = 2 THEN CASE WHEN substr(birthday, 1, 4)::int % 4 = 0 AND (substr(birthday, 1, 4)::int % 100 <> 0 OR substr(birthday, 1, 4)::int % 400 = 0)
            THEN 29 ELSE 28 END WHEN substr(birthday, 6, 2)::int IN (4, 6, 9, 11) THEN 30 ELSE 31 END AS bd_ok,
    created_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]Z$'
      AND substr(created_at, 6, 2)::int BETWEEN 1 AND 12 AND substr(created_at, 9, 2)::int BETWEEN 1 AND CASE WHEN substr(created_at, 6, 2)::int = 2 THEN CASE WHEN substr(created_at, 1, 4)::int % 4 = 0 AND (substr(created_at, 1, 4)::int % 100 <> 0 OR substr(created_at, 1, 4)::int % 400 = 0)
            THEN 29 ELSE 28 END WHEN substr(created_at, 6, 2)::int IN (4, 6, 9, 11) THEN 30 ELSE 31 END AS ca_ok,
    age ~ '^-?[0-9]+$' AS age_ok,
    has_licence IN ('true', 'false') AS hl_ok,
    salary ~ '^-?[0-9]+([.][0-9]+)?$' AS sal_ok,
    dept_id ~ '^-?[0-9]+$' AS dept_ok
  FROM people
)
SELECT
  count(*) FILTER (WHERE id IS NULL) AS "person.id.required",
  count(*) FILTER (WHERE id IS NOT NULL AND NOT id_ok) AS "person.id.type",
  (SELECT coalesce(sum(n - 1), 0) FROM (SELECT count(*) AS n FROM people WHERE id ~ '^-?[0-9]+$' GROUP BY id::bigint HAVING count(*) > 1) d) AS "person.id.unique",
  count(*) FILTER (WHERE name IS NULL) AS "person.name.required",
  count(*) FILTER (WHERE char_length(name) NOT BETWEEN 3 AND 32) AS "person.name.length",
  count(*) FILTER (WHERE name !~ '^[A-Za-zÀ-ÖØ-öø-ÿ ]+$') AS "person.name.pattern",
  count(*) FILTER (WHERE email IS NULL) AS "person.email.required",
  count(*) FILTER (WHERE email !~ '^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$') AS "person.email.pattern",
  count(*) FILTER (WHERE birthday IS NULL) AS "person.birthday.required",
  count(*) FILTER (WHERE birthday IS NOT NULL AND NOT bd_ok) AS "person.birthday.type",
  count(*) FILTER (WHERE has_licence IS NULL) AS "person.has_licence.required",
  count(*) FILTER (WHERE has_licence IS NOT NULL AND NOT hl_ok) AS "person.has_licence.type",
  count(*) FILTER (WHERE age IS NULL) AS "person.age.required",
  count(*) FILTER (WHERE age IS NOT NULL AND NOT age_ok) AS "person.age.type",
  count(*) FILTER (WHERE salary IS NULL) AS "person.salary.required",
  count(*) FILTER (WHERE salary IS NOT NULL AND NOT sal_ok) AS "person.salary.type",
  count(*) FILTER (WHERE sal_ok AND salary::numeric < 0) AS "person.salary.minimum",
  count(*) FILTER (WHERE country IS NULL) AS "person.country.required",
  count(*) FILTER (WHERE country NOT IN ('US', 'GB', 'DE', 'FR', 'ES', 'IT', 'NL', 'SE', 'PL', 'CA')) AS "person.country.enum",
  count(*) FILTER (WHERE dept_id IS NULL) AS "person.dept_id.required",
  count(*) FILTER (WHERE dept_id IS NOT NULL AND NOT dept_ok) AS "person.dept_id.type",
  count(*) FILTER (WHERE dept_ok AND dept_id::bigint NOT IN (SELECT id FROM departments)) AS "person.dept_id.fk",
  count(*) FILTER (WHERE created_at IS NULL) AS "person.created_at.required",
  count(*) FILTER (WHERE created_at IS NOT NULL AND NOT ca_ok) AS "person.created_at.type",
  count(*) FILTER (WHERE hl_ok AND age_ok AND has_licence = 'true' AND age::bigint < 16) AS "person.licence_age",
  count(*) FILTER (WHERE age_ok AND bd_ok AND ca_ok AND age::bigint <>
      extract(year FROM age(substr(created_at, 1, 10)::date, birthday::date))::int) AS "person.age.consistent"
FROM p;
