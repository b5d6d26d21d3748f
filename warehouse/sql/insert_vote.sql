INSERT INTO votes (task_id, attempt, critic, model, decision, reason, criteria, created_at)
VALUES ($task_id, $attempt, $critic, $model, $decision, $reason, $criteria, $created_at)
ON CONFLICT (task_id, attempt, critic) DO UPDATE SET
    model = excluded.model, decision = excluded.decision, reason = excluded.reason,
    criteria = excluded.criteria, created_at = excluded.created_at;
