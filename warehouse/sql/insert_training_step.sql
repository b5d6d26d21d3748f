-- A resumed run logs the steps after its checkpoint again: the newer row wins.
INSERT OR REPLACE INTO training_steps
    (run_id, step, epoch, loss, learning_rate, grad_norm, tokens, trained_tokens, seconds, recorded_at,
     iteration, rollouts, groups, zero_variance_groups, reward_mean, unscored, advantage_abs_mean,
     ratio_mean, clip_low_fraction, clip_high_fraction, rollout_seconds)
VALUES ($run_id, $step, $epoch, $loss, $learning_rate, $grad_norm, $tokens, $trained_tokens, $seconds, $recorded_at,
        $iteration, $rollouts, $groups, $zero_variance_groups, $reward_mean, $unscored, $advantage_abs_mean,
        $ratio_mean, $clip_low_fraction, $clip_high_fraction, $rollout_seconds);
