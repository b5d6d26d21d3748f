SELECT step, iteration, tuples, episodes, scored, successes, reward_mean, success_rate, seconds
FROM training_evals WHERE run_id = $run_id ORDER BY step;
