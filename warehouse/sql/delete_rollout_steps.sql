DELETE FROM rollout_steps WHERE rollout_id = $rollout_id AND model = $model AND run_id = $run_id;
