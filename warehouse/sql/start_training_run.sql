INSERT INTO training_runs (run_id, kind, model, output_dir, config, status, started_at, resumed_from, samples, dropped)
VALUES ($run_id, $kind, $model, $output_dir, $config, 'running', $started_at, $resumed_from, $samples, $dropped)
ON CONFLICT (run_id) DO UPDATE SET
    config = excluded.config, status = 'running', started_at = excluded.started_at, finished_at = NULL,
    resumed_from = excluded.resumed_from, samples = excluded.samples, dropped = excluded.dropped;
