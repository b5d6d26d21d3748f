SELECT iteration, tuple_id, repeat, reward, advantage, model_steps, completion_tokens, seconds
FROM gspo_rollouts WHERE run_id = $run_id ORDER BY iteration, tuple_id, repeat;
