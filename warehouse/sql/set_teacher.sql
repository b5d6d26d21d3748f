UPDATE tuples SET teacher = $teacher, updated_at = $now WHERE task_id = $task_id;
