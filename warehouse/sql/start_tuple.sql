-- A new attempt of a tuple: the tuple keeps the run that first started it (its origin run); the
-- attempt row (insert_attempt) records which run made this one.
INSERT INTO tuples (task_id, run_id, status, attempt, rounds, provenance, created_at, updated_at)
VALUES ($task_id, $run_id, 'generating', 1, 0, $provenance, $now, $now)
ON CONFLICT (task_id) DO UPDATE SET
    status = 'generating', attempt = tuples.attempt + 1, rounds = 0,
    reward_initial = NULL, reward_golden = NULL, reject_reason = NULL, error = NULL,
    provenance = excluded.provenance, updated_at = excluded.updated_at
RETURNING attempt;
