UPDATE rollout_runs SET finished_at = $finished_at, summary = $summary WHERE run_id = $run_id;
