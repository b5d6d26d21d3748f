INSERT OR REPLACE INTO gspo_rollouts
    (run_id, iteration, tuple_id, repeat, reward, advantage, model_steps, completion_tokens, seconds, recorded_at)
VALUES ($run_id, $iteration, $tuple_id, $repeat, $reward, $advantage, $model_steps, $completion_tokens, $seconds,
        $recorded_at);
