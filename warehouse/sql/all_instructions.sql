SELECT instruction FROM specs ORDER BY task_id;
