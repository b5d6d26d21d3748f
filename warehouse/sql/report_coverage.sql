-- Coverage rows of one run (the latest when $run_id is NULL), for reports and charts.
SELECT run_id, dimension, value, specs, verified, share, bound, quota_asked, quota_effective, within_quota
FROM coverage
WHERE run_id = coalesce($run_id, (SELECT run_id FROM runs ORDER BY started_at DESC LIMIT 1))
ORDER BY dimension, specs DESC, value;
