-- Held-out evaluation of training runs (training/evaluate.py): the weights being trained, played on
-- verified tuples the run never trains on, before training and as it goes. One row per evaluation.
CREATE TABLE training_evals (
    run_id       VARCHAR NOT NULL,
    step         INTEGER NOT NULL,   -- optimizer steps taken when evaluated (0: before training)
    iteration    INTEGER,            -- GSPO: iterations done (0: before the first); NULL for SFT
    tuples       INTEGER NOT NULL,   -- held-out tuples played
    episodes     INTEGER NOT NULL,
    scored       INTEGER NOT NULL,   -- episodes the grader scored (the rest: NULL reward, never a 0)
    successes    INTEGER NOT NULL,   -- scored episodes at reward 1.0
    reward_mean  DOUBLE,             -- over scored episodes
    success_rate DOUBLE,             -- successes / scored
    seconds      DOUBLE,
    recorded_at  TIMESTAMP NOT NULL,
    PRIMARY KEY (run_id, step)
);
