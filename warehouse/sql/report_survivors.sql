-- Mutants a reward gave full credit to, in the tuples' latest mutation round (what to fix).
SELECT s.family, m.task_id, m.mutant_id, m.kind, m.unit_kind, m.what
FROM surviving_mutants m
JOIN mutation_by_tuple t ON t.task_id = m.task_id AND t.attempt = m.attempt AND t.round = m.round
JOIN specs s ON s.task_id = m.task_id
WHERE $run_id IS NULL OR t.run_id = $run_id
ORDER BY s.family, m.task_id, m.mutant_id;
