INSERT INTO attempts (task_id, attempt, run_id, status, started_at)
VALUES ($task_id, $attempt, $run_id, 'generating', $now)
ON CONFLICT (task_id, attempt) DO UPDATE SET run_id = excluded.run_id, started_at = excluded.started_at;
