SELECT spec FROM specs WHERE task_id = $task_id;
