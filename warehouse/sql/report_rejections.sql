-- The most common reasons rounds failed, per app and per failed stage: the first agreement condition
-- that failed, or the stage that failed around them (generator or discriminator: no script to
-- check; mutation: the five conditions held but a mutant did not die; pipeline: an internal error;
-- vote: a critic verdict). $app NULL means every app. A tuple counts once, under its apps joined
-- with '+' (a calc+writer tuple is neither a calc nor a writer row; --app calc selects it too).
-- One row per (apps, condition, reason), most frequent first, with the number of rounds and tuples
-- and one example of the feedback the agents were given.
WITH failed_rounds AS (
    SELECT r.task_id, r.attempt, r.round, r.reject_reason AS reason,
           CASE
               WHEN r.reject_reason IN ('generator_error', 'discriminator_error')
                   THEN split_part(r.reject_reason, '_', 1)
               WHEN r.reject_reason = 'mutant_survived' OR r.reject_reason LIKE 'mutation%'
                    OR r.reject_reason = 'mutants_skipped' THEN 'mutation'
               WHEN r.reject_reason = 'internal_error' THEN 'pipeline'
               ELSE coalesce((SELECT json_extract_string(c.value, '$.condition')
                              FROM json_each(r.conditions) AS c
                              WHERE NOT CAST(json_extract(c.value, '$.ok') AS BOOLEAN)
                              LIMIT 1), 'unknown')
           END AS condition,
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
per_tuple AS (
    SELECT array_to_string(s.apps, '+') AS app, s.apps, f.*
    FROM failed_rounds f JOIN specs s USING (task_id)
)
SELECT app, condition, reason, count(*) AS rounds, count(DISTINCT task_id) AS tuples,
       any_value(feedback) AS example
FROM per_tuple
WHERE $app IS NULL OR list_contains(apps, $app)
GROUP BY app, condition, reason
ORDER BY app, rounds DESC, condition, reason;
