SELECT s.task_id, s.family, s.apps, t.status, t.rounds, t.reject_reason, t.seconds, t.bundle_path
FROM specs s JOIN tuples t USING (task_id)
WHERE s.task_id = $task_id;
