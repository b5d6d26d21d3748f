-- GSPO (training/gspo.py): the per-iteration figures of a GSPO run on its training_steps row
-- (one row per iteration, `step` the optimizer steps taken so far), and every rollout it trained
-- on with its reward and its group advantage. SFT rows leave the new columns NULL.
ALTER TABLE training_steps ADD COLUMN iteration INTEGER;              -- GSPO: the rollout + update round
ALTER TABLE training_steps ADD COLUMN rollouts INTEGER;               -- episodes sampled this iteration
ALTER TABLE training_steps ADD COLUMN groups INTEGER;                 -- tasks (groups of G) this iteration
ALTER TABLE training_steps ADD COLUMN zero_variance_groups INTEGER;   -- groups with no reward spread: no signal
ALTER TABLE training_steps ADD COLUMN reward_mean DOUBLE;             -- over scored rollouts (NULL rewards left out)
ALTER TABLE training_steps ADD COLUMN unscored INTEGER;               -- rollouts whose grader gave no score
ALTER TABLE training_steps ADD COLUMN advantage_abs_mean DOUBLE;      -- mean |A| over the rollouts
ALTER TABLE training_steps ADD COLUMN ratio_mean DOUBLE;              -- mean importance ratio of the trained turns
ALTER TABLE training_steps ADD COLUMN clip_low_fraction DOUBLE;       -- share of trained tokens clipped below (A < 0)
ALTER TABLE training_steps ADD COLUMN clip_high_fraction DOUBLE;      -- share of trained tokens clipped above (A > 0)
ALTER TABLE training_steps ADD COLUMN rollout_seconds DOUBLE;         -- wall time of the rollouts (`seconds`: the update)

CREATE TABLE gspo_rollouts (
    run_id      VARCHAR NOT NULL,
    iteration   INTEGER NOT NULL,
    tuple_id    VARCHAR NOT NULL,
    repeat      INTEGER NOT NULL,        -- its index in the group
    reward      DOUBLE,                  -- NULL: the grader gave no score (never imputed as 0)
    advantage   DOUBLE NOT NULL,         -- reward - mean of its group's scored rewards (0 if unscored)
    model_steps INTEGER NOT NULL,        -- sampled replies, each one trained sample
    completion_tokens INTEGER NOT NULL,
    seconds     DOUBLE,
    recorded_at TIMESTAMP NOT NULL,
    PRIMARY KEY (run_id, iteration, tuple_id, repeat)
);
