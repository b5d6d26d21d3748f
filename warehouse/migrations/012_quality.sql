-- The quality flow (`cuagym quality`, the nightly `quality` deployment): one row per family instance
-- it checked — the endpoints, the near misses, the mutation stage's mutants (survivors with what they
-- changed) and, on its first seeds, the GUI teacher's episode. A run never replaces another's rows:
-- the view quality_by_family reads each family's latest run.
CREATE TABLE quality (
    run_id          VARCHAR NOT NULL,
    family          VARCHAR NOT NULL,
    app             VARCHAR NOT NULL,
    seed            INTEGER NOT NULL,
    task_id         VARCHAR NOT NULL,
    reward_initial  DOUBLE,
    reward_golden   DOUBLE,
    mistakes        INTEGER NOT NULL,
    mistakes_told   INTEGER NOT NULL,
    mutants         INTEGER NOT NULL,
    killed          INTEGER NOT NULL,
    skipped         INTEGER NOT NULL,
    survivors       JSON NOT NULL,
    error           VARCHAR,
    teacher_ran     BOOLEAN NOT NULL,
    teacher_passed  BOOLEAN,
    teacher_error   VARCHAR,
    mutation_s      DOUBLE NOT NULL,
    teacher_s       DOUBLE,
    created_at      TIMESTAMP NOT NULL,
    PRIMARY KEY (run_id, family, seed)
);
