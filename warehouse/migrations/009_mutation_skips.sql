-- The mutation stage fails closed: a round records how many of its planned mutants were skipped
-- (could not be built, provisioned or put into the hub), whether the state listing was truncated,
-- and why the stage could not test the reward (NULL: it could). Every skipped mutant is kept.
ALTER TABLE rounds ADD COLUMN mutation_skipped INTEGER;
ALTER TABLE rounds ADD COLUMN mutation_truncated BOOLEAN;
ALTER TABLE rounds ADD COLUMN mutation_error VARCHAR;

CREATE TABLE mutation_skips (
    task_id   VARCHAR NOT NULL,
    attempt   INTEGER NOT NULL,
    round     INTEGER NOT NULL,
    mutant_id VARCHAR NOT NULL,
    path      VARCHAR NOT NULL,
    why       VARCHAR NOT NULL,
    PRIMARY KEY (task_id, attempt, round, mutant_id)
);
