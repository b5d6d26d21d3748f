-- Every training run with its totals, newest start first (what `cuagym report training` can show):
-- steps is the last logged optimizer step, iterations the last GSPO iteration (NULL for SFT);
-- tokens/s is input tokens over the wall time of the steps (SFT) or of the updates (GSPO).
SELECT r.run_id, r.kind, r.model, r.status, r.started_at, r.finished_at, r.samples, r.dropped,
       count(s.step) AS logged, max(s.step) AS steps, max(s.iteration) AS iterations,
       arg_min(s.loss, s.step) AS first_loss, arg_max(s.loss, s.step) AS last_loss,
       sum(s.tokens) AS tokens, sum(s.seconds) AS seconds,
       sum(s.tokens) / nullif(sum(s.seconds), 0) AS tokens_per_s
FROM training_runs r LEFT JOIN training_steps s USING (run_id)
GROUP BY ALL
ORDER BY r.started_at DESC, r.run_id;
