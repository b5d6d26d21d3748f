UPDATE tuples SET teacher = $teacher, teacher_flag = $flag, updated_at = $now WHERE task_id = $task_id;
