INSERT OR REPLACE INTO rollout_steps (rollout_id, model, run_id, step, model_step, action, ok, error, x, y)
VALUES ($rollout_id, $model, $run_id, $step, $model_step, $action, $ok, $error, $x, $y);
