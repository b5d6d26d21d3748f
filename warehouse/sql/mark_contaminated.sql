-- A verified tuple too close to a benchmark task: out of the export.
UPDATE tuples SET status = 'contaminated', updated_at = $now
WHERE task_id = $tuple_id AND status IN ('verified', 'exported');
