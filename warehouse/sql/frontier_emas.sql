-- Each task's latest frontier state as of `through_iteration` (later rows: iterations to be redone).
SELECT tuple_id, iteration AS last_iteration, success_rate AS last_rate, success_ema, attempts, unscored
FROM gspo_frontier_emas
WHERE run_id = $run_id AND iteration <= $through_iteration
QUALIFY row_number() OVER (PARTITION BY tuple_id ORDER BY iteration DESC) = 1
ORDER BY tuple_id;
