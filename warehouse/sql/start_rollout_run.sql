INSERT INTO rollout_runs (run_id, started_at, params) VALUES ($run_id, $started_at, $params)
ON CONFLICT (run_id) DO UPDATE SET started_at = excluded.started_at, finished_at = NULL;
