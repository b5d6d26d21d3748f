INSERT OR REPLACE INTO rollouts (rollout_id, model, tuple_id, family, app, repeat, run_id, policy, coordinate_space, reward,
                                 reward_error, terminated, status, model_steps, calls, failed_calls, seconds,
                                 overhead_s, judge_success, judge_reason, reward_judge_disagree, dataset, created_at)
VALUES ($rollout_id, $model, $tuple_id, $family, $app, $repeat, $run_id, $policy, $coordinate_space, $reward, $reward_error,
        $terminated, $status, $model_steps, $calls, $failed_calls, $seconds, $overhead_s, $judge_success,
        $judge_reason, $reward_judge_disagree, $dataset, $created_at);
