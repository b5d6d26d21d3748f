-- A rollout row is one run's episode: a second run of the same rollout id and model (another
-- dataset, another judge, another day) adds its rows instead of replacing the first run's, so pass@k
-- and the per-family figures count every episode that was played. Only a run resuming itself replaces
-- its own unfinished episode. Existing rows are kept (each already carries the run that wrote it).
CREATE TABLE rollouts_by_run AS SELECT * FROM rollouts;
DROP TABLE rollouts;
CREATE TABLE rollouts (
    rollout_id       VARCHAR NOT NULL,
    model            VARCHAR NOT NULL,
    tuple_id         VARCHAR NOT NULL,
    family           VARCHAR NOT NULL,
    app              VARCHAR NOT NULL,
    repeat           INTEGER NOT NULL,
    run_id           VARCHAR NOT NULL,
    policy           VARCHAR NOT NULL,
    coordinate_space VARCHAR,
    reward           DOUBLE,
    reward_error     VARCHAR,
    terminated       BOOLEAN NOT NULL,
    status           VARCHAR,
    model_steps      INTEGER NOT NULL,
    calls            INTEGER NOT NULL,
    failed_calls     INTEGER NOT NULL,
    seconds          DOUBLE,
    overhead_s       DOUBLE,
    judge_success    BOOLEAN,
    judge_reason     VARCHAR,
    reward_judge_disagree BOOLEAN,
    dataset          VARCHAR NOT NULL,
    created_at       TIMESTAMP NOT NULL,
    PRIMARY KEY (rollout_id, model, run_id)
);
INSERT INTO rollouts BY NAME SELECT * FROM rollouts_by_run;
DROP TABLE rollouts_by_run;

-- Steps follow their rollout: the run joins the key; old steps take their rollout's run.
CREATE TABLE rollout_steps_by_run AS
SELECT s.*, r.run_id FROM rollout_steps s JOIN rollouts r USING (rollout_id, model);
DROP TABLE rollout_steps;
CREATE TABLE rollout_steps (
    rollout_id  VARCHAR NOT NULL,
    model       VARCHAR NOT NULL,
    run_id      VARCHAR NOT NULL,
    step        INTEGER NOT NULL,
    model_step  INTEGER NOT NULL,
    action      VARCHAR NOT NULL,
    ok          BOOLEAN NOT NULL,
    error       VARCHAR,
    x           INTEGER,
    y           INTEGER,
    PRIMARY KEY (rollout_id, model, run_id, step)
);
INSERT INTO rollout_steps BY NAME SELECT * FROM rollout_steps_by_run;
DROP TABLE rollout_steps_by_run;
