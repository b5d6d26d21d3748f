-- Retry accounting. A tuple belongs to the run that sampled it (tuples.run_id no longer moves to the
-- retry run that re-attempts it); each attempt records the run that made it, so a run's figures
-- count each of its tuples once however often it was retried, and a retry run's work is still
-- visible per run. Retry runs get their own row in `runs` (kind = 'retry').
ALTER TABLE runs ADD COLUMN kind VARCHAR DEFAULT 'synth';   -- synth | retry
UPDATE runs SET kind = 'synth' WHERE kind IS NULL;

CREATE TABLE attempts (
    task_id       VARCHAR NOT NULL,
    attempt       INTEGER NOT NULL,
    run_id        VARCHAR NOT NULL,          -- the run that made this attempt (a synth or a retry run)
    status        VARCHAR NOT NULL,          -- generating | verified | rejected
    reject_reason VARCHAR,
    rounds        INTEGER,
    seconds       DOUBLE,
    started_at    TIMESTAMP NOT NULL,
    finished_at   TIMESTAMP,
    PRIMARY KEY (task_id, attempt)
);

-- What older files know: the latest attempt of each tuple and the run that made it (earlier
-- attempts' runs were overwritten and are not recoverable; their rounds stay in `rounds`).
INSERT INTO attempts
SELECT task_id, attempt, run_id, CASE WHEN status = 'exported' THEN 'verified' ELSE status END,
       reject_reason, rounds, seconds, updated_at, CASE WHEN status <> 'generating' THEN updated_at END
FROM tuples;

-- Retry runs seen only on tuples so far get their `runs` row (what they ran with was never stored).
INSERT INTO runs (run_id, started_at, finished_at, status, backend, seed, git_rev, params, kind)
SELECT run_id, min(updated_at), max(updated_at), 'finished',
       coalesce(any_value(json_extract_string(provenance, '$.backend')), 'unknown'), 0,
       any_value(json_extract_string(provenance, '$.git_rev')), '{}', 'retry'
FROM tuples
WHERE run_id LIKE 'retry-%'
GROUP BY run_id
ON CONFLICT (run_id) DO NOTHING;

-- And the retried tuples go back to the run that sampled them.
UPDATE tuples SET run_id = s.run_id
FROM specs s
WHERE tuples.task_id = s.task_id AND tuples.run_id LIKE 'retry-%';
