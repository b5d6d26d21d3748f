-- Tuples an operator asked to re-run: by id, or by status / reject reason / app.
SELECT s.spec
FROM specs s JOIN tuples t USING (task_id)
WHERE (len($task_ids) > 0 AND list_contains($task_ids, s.task_id))
   OR (len($task_ids) = 0
       AND t.status = $status
       AND ($reject_reason IS NULL OR t.reject_reason = $reject_reason)
       AND ($app IS NULL OR list_contains(s.apps, $app)))
ORDER BY s.task_id
LIMIT $limit;
