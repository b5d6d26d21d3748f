SELECT quota, asked, effective, feasible, why FROM run_quotas
WHERE run_id = coalesce($run_id, (SELECT run_id FROM runs ORDER BY started_at DESC LIMIT 1))
ORDER BY quota;
