-- A resumed run logs the steps after its checkpoint again: the newer row wins.
INSERT OR REPLACE INTO training_steps
    (run_id, step, epoch, loss, learning_rate, grad_norm, tokens, trained_tokens, seconds, recorded_at)
VALUES ($run_id, $step, $epoch, $loss, $learning_rate, $grad_norm, $tokens, $trained_tokens, $seconds, $recorded_at);
