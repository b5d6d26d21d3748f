-- Decontamination (tasks/decontam/): one row per verified tuple checked against a run's benchmark
-- sets, naming its closest benchmark task and the three scores; decision is clean or contaminated
-- (a contaminated tuple's status is `contaminated` and it is never exported). A tuple checked again
-- (a resumed run, other sets) adds a row: the view contamination_by_family reads each tuple's latest.
CREATE TABLE contamination (
    tuple_id        VARCHAR NOT NULL,
    run_id          VARCHAR,
    benchmark       VARCHAR NOT NULL,
    task_id         VARCHAR NOT NULL,
    ngram           DOUBLE NOT NULL,
    embedding       DOUBLE NOT NULL,
    target_overlap  DOUBLE NOT NULL,
    rule            VARCHAR NOT NULL,
    decision        VARCHAR NOT NULL,
    created_at      TIMESTAMP NOT NULL
);
