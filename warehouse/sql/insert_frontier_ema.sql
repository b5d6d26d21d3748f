-- A redone iteration (after a resume from an older checkpoint) replaces its rows.
INSERT OR REPLACE INTO gspo_frontier_emas
    (run_id, iteration, tuple_id, success_rate, success_ema, weight, attempts, unscored, recorded_at)
VALUES ($run_id, $iteration, $tuple_id, $success_rate, $success_ema, $weight, $attempts, $unscored, $recorded_at);
