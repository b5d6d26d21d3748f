-- `cuagym report quality`: each family's latest quality run, weakest first (or one app's families).
SELECT *
FROM quality_by_family
WHERE $app IS NULL OR app = $app
ORDER BY kill_rate NULLS FIRST, teacher_pass_rate NULLS LAST, family;
