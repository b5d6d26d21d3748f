UPDATE tuples SET status = $status, rounds = $rounds, reward_initial = $reward_initial,
                  reward_golden = $reward_golden, reject_reason = $reject_reason, error = $error,
                  seconds = $seconds, updated_at = $now
WHERE task_id = $task_id;
