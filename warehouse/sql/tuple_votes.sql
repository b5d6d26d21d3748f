-- The votes of a tuple's latest attempt, with their aggregate.
SELECT v.critic, v.model, v.decision, v.reason, v.criteria, r.decision AS aggregate
FROM tuples t
JOIN votes v ON v.task_id = t.task_id AND v.attempt = t.attempt
LEFT JOIN vote_results r ON r.task_id = t.task_id AND r.attempt = t.attempt
WHERE t.task_id = $task_id
ORDER BY v.critic;
