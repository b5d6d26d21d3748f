-- The passing round of a tuple's latest attempt (what gets exported).
SELECT r.round, r.initial_setup_py, r.golden_patch_py, r.reward_py, r.review, r.review_md,
       r.reward_initial, r.reward_golden, t.attempt, t.provenance, t.created_at, t.rounds
FROM tuples t JOIN rounds r ON r.task_id = t.task_id AND r.attempt = t.attempt
WHERE t.task_id = $task_id AND r.verdict = 'PASS'
ORDER BY r.round DESC LIMIT 1;
