-- Frontier sampling (training/frontier.py): each GSPO iteration's success EMA of every task it drew.
-- One row per (run, iteration, task) rather than one per (run, task) updated in place: a run resumed
-- from an older checkpoint reads the EMAs as of that checkpoint's iteration (and redoes the later
-- iterations, replacing their rows), and the rows are the EMA's history. The view gspo_frontier
-- holds the latest row per (run, task).
CREATE TABLE gspo_frontier_emas (
    run_id      VARCHAR NOT NULL,
    iteration   INTEGER NOT NULL,
    tuple_id    VARCHAR NOT NULL,
    success_rate DOUBLE,                 -- this iteration's share of scored rollouts with reward 1.0 (NULL: none scored)
    success_ema  DOUBLE,                 -- the EMA after this iteration (NULL: never scored yet)
    weight       DOUBLE NOT NULL,        -- the Gaussian frontier weight of that EMA (1.0 at 0.5 or untried)
    attempts     INTEGER NOT NULL,       -- scored rollouts of the task so far in the run
    unscored     INTEGER NOT NULL,       -- rollouts of the task so far whose grader gave no score
    recorded_at  TIMESTAMP NOT NULL,
    PRIMARY KEY (run_id, iteration, tuple_id)
);
