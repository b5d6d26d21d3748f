SELECT rollout_id FROM rollouts WHERE model = $model AND dataset = $dataset;
