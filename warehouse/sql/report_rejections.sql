-- The most common reasons rounds failed, per app and per failed agreement condition (or `vote` for
-- a critic verdict); $app NULL means every app. One row per (app, condition, reason), most frequent
-- first, with the number of rounds and tuples and one example of the feedback the agents were given.
WITH failed_rounds AS (
    SELECT r.task_id, r.attempt, r.round, r.reject_reason AS reason,
           coalesce((SELECT json_extract_string(c.value, '$.condition')
                     FROM json_each(r.conditions) AS c
                     WHERE NOT CAST(json_extract(c.value, '$.ok') AS BOOLEAN)
                     LIMIT 1), 'agent') AS condition,
           json_extract_string(r.review, '$.feedback[0]') AS feedback
    FROM rounds r
    WHERE r.verdict = 'FAIL'
    UNION ALL
    SELECT v.task_id, v.attempt, NULL AS round, 'vote_' || v.decision AS reason, 'vote' AS condition,
           (SELECT any_value(reason) FROM votes w
            WHERE w.task_id = v.task_id AND w.attempt = v.attempt AND w.decision = v.decision) AS feedback
    FROM vote_results v
    WHERE v.decision <> 'keep'
),
per_app AS (
    SELECT unnest(s.apps) AS app, f.*
    FROM failed_rounds f JOIN specs s USING (task_id)
)
SELECT app, condition, reason, count(*) AS rounds, count(DISTINCT task_id) AS tuples,
       any_value(feedback) AS example
FROM per_app
WHERE $app IS NULL OR app = $app
GROUP BY app, condition, reason
ORDER BY app, rounds DESC, condition, reason;
