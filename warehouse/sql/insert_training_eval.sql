-- A resumed run that evaluates the same step again: the newer row wins.
INSERT OR REPLACE INTO training_evals
    (run_id, step, iteration, tuples, episodes, scored, successes, reward_mean, success_rate, seconds, recorded_at)
VALUES ($run_id, $step, $iteration, $tuples, $episodes, $scored, $successes, $reward_mean, $success_rate,
        $seconds, $recorded_at);
