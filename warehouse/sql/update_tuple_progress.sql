UPDATE tuples SET rounds = $rounds, reward_initial = $reward_initial, reward_golden = $reward_golden,
                  updated_at = $now
WHERE task_id = $task_id;
