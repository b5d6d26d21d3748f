-- The tuple's current attempt ends with the tuple's status (exported stays a tuple-level state).
UPDATE attempts SET status = $status, reject_reason = $reject_reason, rounds = $rounds,
                    seconds = $seconds, finished_at = $now
WHERE task_id = $task_id AND attempt = (SELECT attempt FROM tuples WHERE task_id = $task_id);
