-- The tuple's current attempt ends contaminated too (the attempts' yield must not count it verified).
UPDATE attempts SET status = 'contaminated'
WHERE task_id = $tuple_id AND attempt = (SELECT attempt FROM tuples WHERE task_id = $tuple_id);
