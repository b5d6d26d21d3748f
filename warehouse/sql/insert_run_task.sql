INSERT INTO run_tasks (run_id, task_id, position) VALUES ($run_id, $task_id, $position)
ON CONFLICT (run_id, task_id) DO NOTHING;
