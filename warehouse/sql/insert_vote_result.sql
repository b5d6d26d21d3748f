INSERT INTO vote_results (task_id, attempt, decision, keep, modify_query, reject, errors, created_at)
VALUES ($task_id, $attempt, $decision, $keep, $modify_query, $reject, $errors, $created_at)
ON CONFLICT (task_id, attempt) DO UPDATE SET
    decision = excluded.decision, keep = excluded.keep, modify_query = excluded.modify_query,
    reject = excluded.reject, errors = excluded.errors, created_at = excluded.created_at;
