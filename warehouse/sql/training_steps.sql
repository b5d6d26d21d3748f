SELECT step, epoch, loss, learning_rate, grad_norm, tokens, trained_tokens, seconds
FROM training_steps WHERE run_id = $run_id ORDER BY step;
