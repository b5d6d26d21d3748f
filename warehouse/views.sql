-- Analyst views. Re-created on every migration so they always match the code.
CREATE OR REPLACE VIEW tuple_status AS
SELECT s.task_id, s.apps, s.platform, s.domain, s.difficulty, s.family, s.template,
       coalesce(t.status, 'pending') AS status, coalesce(t.rounds, 0) AS rounds,
       t.reward_initial, t.reward_golden, t.reject_reason, t.attempt, s.run_id, t.bundle_path,
       t.seconds, s.instruction
FROM specs s LEFT JOIN tuples t USING (task_id);

CREATE OR REPLACE VIEW round_log AS
SELECT task_id, attempt, round, verdict, reject_reason, reward_initial, reward_golden,
       CAST(json_extract(timings, '$.total_s') AS DOUBLE) AS seconds, started_at
FROM rounds;
