UPDATE training_runs SET status = $status, finished_at = $finished_at, summary = $summary
WHERE run_id = $run_id;
