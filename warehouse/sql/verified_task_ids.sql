SELECT task_id FROM tuples WHERE status IN ('verified', 'exported') ORDER BY task_id;
