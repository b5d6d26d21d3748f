SELECT s.spec FROM run_tasks r JOIN specs s USING (task_id) WHERE r.run_id = $run_id ORDER BY r.position;
