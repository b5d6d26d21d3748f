UPDATE runs SET finished_at = $finished_at, status = $status, summary = $summary WHERE run_id = $run_id;
