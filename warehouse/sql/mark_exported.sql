UPDATE tuples SET status = 'exported', bundle_path = $bundle_path, updated_at = $now
WHERE task_id = $task_id AND status IN ('verified', 'exported');
