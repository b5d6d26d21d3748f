SELECT step, epoch, loss, learning_rate, grad_norm, tokens, trained_tokens, seconds,
       iteration, rollouts, groups, zero_variance_groups, reward_mean, unscored, advantage_abs_mean,
       ratio_mean, clip_low_fraction, clip_high_fraction, rollout_seconds
FROM training_steps WHERE run_id = $run_id ORDER BY step;
