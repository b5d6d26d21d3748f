-- Core tables. Every pipeline step writes here as it finishes; nothing is ever deleted.
CREATE TABLE runs (
    run_id      VARCHAR PRIMARY KEY,
    started_at  TIMESTAMP NOT NULL,
    finished_at TIMESTAMP,
    status      VARCHAR NOT NULL,           -- running | finished | failed
    backend     VARCHAR NOT NULL,
    seed        BIGINT NOT NULL,
    git_rev     VARCHAR,
    params      JSON NOT NULL,
    summary     JSON
);

CREATE TABLE specs (
    task_id       VARCHAR PRIMARY KEY,
    run_id        VARCHAR NOT NULL,           -- the run that first sampled it
    position      INTEGER NOT NULL,           -- order within that run's batch
    family        VARCHAR NOT NULL,
    template      VARCHAR NOT NULL,
    apps          VARCHAR[] NOT NULL,
    platform      VARCHAR NOT NULL,
    domain        VARCHAR NOT NULL,
    difficulty    VARCHAR NOT NULL,
    scenario      VARCHAR NOT NULL,
    persona       VARCHAR NOT NULL,
    taxonomy_leaf VARCHAR NOT NULL,
    seed          BIGINT NOT NULL,
    instruction   VARCHAR NOT NULL,
    spec          JSON NOT NULL,
    created_at    TIMESTAMP NOT NULL
);

-- Which specs make up each run's batch (a spec drawn again by a later run is shared, not copied).
CREATE TABLE run_tasks (
    run_id   VARCHAR NOT NULL,
    task_id  VARCHAR NOT NULL,
    position INTEGER NOT NULL,
    PRIMARY KEY (run_id, task_id)
);

CREATE TABLE tuples (
    task_id        VARCHAR PRIMARY KEY,
    run_id         VARCHAR NOT NULL,
    status         VARCHAR NOT NULL,          -- generating | verified | rejected | exported
    attempt        INTEGER NOT NULL,
    rounds         INTEGER NOT NULL DEFAULT 0,
    reward_initial DOUBLE,
    reward_golden  DOUBLE,
    reject_reason  VARCHAR,
    error          VARCHAR,
    provenance     JSON,
    bundle_path    VARCHAR,
    seconds        DOUBLE,
    created_at     TIMESTAMP NOT NULL,
    updated_at     TIMESTAMP NOT NULL
);

CREATE TABLE rounds (
    task_id          VARCHAR NOT NULL,
    attempt          INTEGER NOT NULL,
    round            INTEGER NOT NULL,
    verdict          VARCHAR NOT NULL,        -- PASS | FAIL
    reject_reason    VARCHAR,
    reward_initial   DOUBLE,
    reward_golden    DOUBLE,
    conditions       JSON NOT NULL,
    review           JSON NOT NULL,
    review_md        VARCHAR NOT NULL,
    timings          JSON NOT NULL,
    initial_setup_py VARCHAR,
    golden_patch_py  VARCHAR,
    reward_py        VARCHAR,
    started_at       TIMESTAMP NOT NULL,
    PRIMARY KEY (task_id, attempt, round)
);

CREATE TABLE scan_findings (
    task_id VARCHAR NOT NULL,
    attempt INTEGER NOT NULL,
    round   INTEGER NOT NULL,
    rule    VARCHAR NOT NULL,
    line    INTEGER NOT NULL,
    message VARCHAR NOT NULL
);
