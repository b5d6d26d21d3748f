-- Exported tuples to roll out, by the filters of `cuagym rollout` (NULL: no filter).
SELECT t.task_id, t.bundle_path, s.family, s.apps
FROM tuples t JOIN specs s USING (task_id)
WHERE t.status = coalesce($status, 'exported') AND t.bundle_path IS NOT NULL
  AND ($ids IS NULL OR list_contains($ids, t.task_id))
  AND ($app IS NULL OR list_contains(s.apps, $app))
  AND ($family IS NULL OR s.family = $family)
  AND ($run_id IS NULL OR t.run_id = $run_id)
ORDER BY t.task_id
LIMIT coalesce($limit, 1000000);
