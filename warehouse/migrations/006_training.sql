-- Training runs (training/): one row per run (an output directory: re-running on it resumes the
-- same run), and one row per logged optimizer step. Checkpoints live in `output_dir`; these rows
-- are the curves.
CREATE TABLE training_runs (
    run_id       VARCHAR PRIMARY KEY,     -- <kind>-<hash of the resolved output_dir>
    kind         VARCHAR NOT NULL,        -- sft | gspo
    model        VARCHAR NOT NULL,        -- the checkpoint the run started from
    output_dir   VARCHAR NOT NULL,
    config       JSON NOT NULL,
    status       VARCHAR NOT NULL,        -- running | done | failed
    started_at   TIMESTAMP NOT NULL,      -- of the latest (re)start
    finished_at  TIMESTAMP,
    resumed_from INTEGER,                 -- the checkpoint step the latest start resumed from
    samples      INTEGER,                 -- training samples (slices) kept
    dropped      INTEGER,                 -- slices dropped (too long, or nothing to train)
    summary      JSON
);

CREATE TABLE training_steps (
    run_id         VARCHAR NOT NULL,
    step           INTEGER NOT NULL,      -- the optimizer step the row was logged at
    epoch          DOUBLE,
    loss           DOUBLE,                -- mean assistant-token cross-entropy since the last row
    learning_rate  DOUBLE,
    grad_norm      DOUBLE,
    tokens         INTEGER NOT NULL,      -- input tokens (padding excluded) since the last row
    trained_tokens INTEGER NOT NULL,      -- tokens carrying loss since the last row
    seconds        DOUBLE NOT NULL,       -- wall time of those steps
    recorded_at    TIMESTAMP NOT NULL,
    PRIMARY KEY (run_id, step)
);
