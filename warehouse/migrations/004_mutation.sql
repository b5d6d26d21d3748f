-- Mutation testing (tasks/mutation): every mutant of every round that reached the stage, and the
-- round's totals. Nothing is deleted: a retried tuple adds its new attempt's mutants.
CREATE TABLE mutants (
    task_id   VARCHAR NOT NULL,
    attempt   INTEGER NOT NULL,
    round     INTEGER NOT NULL,
    mutant_id VARCHAR NOT NULL,
    base      VARCHAR NOT NULL,       -- golden (one change reverted) | initial (one change applied)
    kind      VARCHAR NOT NULL,       -- partial_revert | corruption
    unit_kind VARCHAR NOT NULL,       -- xlsx.cell, file.moved, hub.path, corrupt.wrong_format, …
    path      VARCHAR NOT NULL,
    what      VARCHAR NOT NULL,
    score     DOUBLE,                 -- NULL: the reward gave no score (a broken check)
    outcome   VARCHAR NOT NULL,       -- killed | errored | survived
    error     VARCHAR,
    PRIMARY KEY (task_id, attempt, round, mutant_id)
);

ALTER TABLE rounds ADD COLUMN mutation_units INTEGER;
ALTER TABLE rounds ADD COLUMN mutation_total INTEGER;
ALTER TABLE rounds ADD COLUMN mutation_killed INTEGER;
