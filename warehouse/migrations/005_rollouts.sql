-- Rollouts (tasks/rollout): every episode a policy ran on a verified tuple, its steps, and the
-- runs that produced them. The trajectories themselves (screenshots, raw replies) live in the
-- dataset directory named by `dataset`; these rows are for counting and filtering.
CREATE TABLE rollout_runs (
    run_id      VARCHAR PRIMARY KEY,
    started_at  TIMESTAMP NOT NULL,
    finished_at TIMESTAMP,
    params      JSON NOT NULL,
    summary     JSON
);

CREATE TABLE rollouts (
    rollout_id       VARCHAR NOT NULL,   -- <tuple id>__r<k>, as in trajectories.jsonl
    model            VARCHAR NOT NULL,   -- scripted:<family> or the LLM
    tuple_id         VARCHAR NOT NULL,
    family           VARCHAR NOT NULL,
    app              VARCHAR NOT NULL,   -- the tuple's primary app
    repeat           INTEGER NOT NULL,
    run_id           VARCHAR NOT NULL,
    policy           VARCHAR NOT NULL,   -- scripted | llm
    coordinate_space VARCHAR,
    reward           DOUBLE,             -- NULL: the grader gave no score (never imputed as 0)
    reward_error     VARCHAR,
    terminated       BOOLEAN NOT NULL,   -- the policy ended the episode before the step budget
    status           VARCHAR,            -- terminate's status
    model_steps      INTEGER NOT NULL,
    calls            INTEGER NOT NULL,
    failed_calls     INTEGER NOT NULL,
    seconds          DOUBLE,
    overhead_s       DOUBLE,             -- per model step: screenshot + execution, policy time excluded
    judge_success    BOOLEAN,            -- the judge model's verdict on the final state (NULL: no judge)
    judge_reason     VARCHAR,            -- its reason, or why it gave no verdict
    reward_judge_disagree BOOLEAN,       -- (reward = 1.0) differs from the judge's verdict
    dataset          VARCHAR NOT NULL,
    created_at       TIMESTAMP NOT NULL,
    PRIMARY KEY (rollout_id, model)
);

CREATE TABLE rollout_steps (
    rollout_id  VARCHAR NOT NULL,
    model       VARCHAR NOT NULL,
    step        INTEGER NOT NULL,
    model_step  INTEGER NOT NULL,
    action      VARCHAR NOT NULL,
    ok          BOOLEAN NOT NULL,
    error       VARCHAR,
    x           INTEGER,                 -- coordinate_screen
    y           INTEGER,
    PRIMARY KEY (rollout_id, model, step)
);

-- The teacher stage's verdict on a tuple: teacher_solved | teacher_failed (NULL: not rolled out),
-- and its flag: reward_judge_disagree when a teacher rollout's reward and the judge disagreed.
ALTER TABLE tuples ADD COLUMN teacher VARCHAR;
ALTER TABLE tuples ADD COLUMN teacher_flag VARCHAR;
