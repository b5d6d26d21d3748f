-- Every contaminated tuple (latest check) with its closest benchmark task and scores.
SELECT c.tuple_id, array_to_string(s.apps, '+') AS app, s.family, c.benchmark, c.task_id, c.rule,
       c.ngram, c.embedding, c.target_overlap, s.instruction
FROM contamination c JOIN specs s ON s.task_id = c.tuple_id
WHERE c.decision = 'contaminated' AND ($app IS NULL OR list_contains(s.apps, $app))
QUALIFY row_number() OVER (PARTITION BY c.tuple_id ORDER BY c.created_at DESC) = 1
ORDER BY c.embedding DESC;
