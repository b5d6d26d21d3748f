INSERT INTO runs (run_id, started_at, status, backend, seed, git_rev, params, kind)
VALUES ($run_id, $started_at, 'running', $backend, $seed, $git_rev, $params, $kind)
ON CONFLICT (run_id) DO UPDATE SET status = 'running', started_at = excluded.started_at;
