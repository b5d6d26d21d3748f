SELECT * FROM yield_by_stage
WHERE run_id = coalesce($run_id, (SELECT run_id FROM runs ORDER BY started_at DESC LIMIT 1));
